import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { mockServer, renderApp, signedIn } from '@/test-utils'
import { ActiveSessions } from './ActiveSessions'
import { ChangePasswordForm } from './ChangePasswordForm'

afterEach(() => vi.unstubAllGlobals())

const WRONG = { status: 400, body: { error: 'Your current password is incorrect.', code: 'validation_failed', issues: [{ path: 'currentPassword', message: 'Your current password is incorrect.' }] } }
const DONE = { status: 200, body: { success: true, message: 'Password changed. Your other devices were signed out.' } }

async function fill(current: string, next: string) {
  await userEvent.type(screen.getByLabelText('Current password'), current)
  await userEvent.type(screen.getByLabelText('New password'), next)
  await userEvent.click(screen.getByRole('button', { name: 'Change Password' }))
}

describe('ChangePasswordForm', () => {
  it('checks the rules before calling the server', async () => {
    const { calls } = mockServer({ 'GET /_api/auth/session': signedIn() })
    renderApp(<ChangePasswordForm />)
    await userEvent.click(screen.getByRole('button', { name: 'Change Password' }))
    expect(await screen.findByText('Please enter your current password.')).toBeInTheDocument()
    expect(screen.getByText('Password must be at least 8 characters long.')).toBeInTheDocument()
    await fill('same-password', 'same-password')
    expect(await screen.findByText('Your new password must be different from your current one.')).toBeInTheDocument()
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0)
  })

  it('shows a wrong current password under its field, then changes it and clears the form', async () => {
    let attempts = 0
    const { calls } = mockServer({
      'GET /_api/auth/session': signedIn(),
      'POST /_api/auth/change-password': () => (++attempts === 1 ? WRONG : DONE),
    })
    renderApp(<ChangePasswordForm />)
    await fill('a-wrong-guess', 'a-new-password')
    const current = screen.getByLabelText('Current password')
    await waitFor(() => expect(current).toHaveAccessibleDescription(/Your current password is incorrect\./))
    await userEvent.clear(current)
    await userEvent.type(current, 'the-right-one')
    expect(screen.queryByText('Your current password is incorrect.')).not.toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Change Password' }))
    await waitFor(() => expect(current).toHaveValue(''))
    expect(calls.at(-1)).toEqual({ method: 'POST', path: '/_api/auth/change-password', body: { currentPassword: 'the-right-one', newPassword: 'a-new-password' } })
  })

  it("shows the server's refusal of a common new password under that field", async () => {
    const message = 'Password must be at least 8 characters long.'
    mockServer({
      'GET /_api/auth/session': signedIn(),
      'POST /_api/auth/change-password': { status: 400, body: { error: message, code: 'validation_failed', issues: [{ path: 'newPassword', message }] } },
    })
    renderApp(<ChangePasswordForm />)
    await fill('the-right-one', 'qwertyuiop')
    await waitFor(() => expect(screen.getByLabelText('New password')).toHaveAccessibleDescription(new RegExp(message)))
  })

  it('drops the other devices from the signed-in devices list once the password is changed', async () => {
    let changed = false
    const here = { device: 'Firefox on Windows', signedInAt: '2026-03-14T09:00:00Z', lastSeenAt: '2026-03-14T09:30:00Z', current: true }
    const phone = { device: 'Safari on iPhone', signedInAt: '2026-03-10T09:00:00Z', lastSeenAt: '2026-03-13T09:00:00Z', current: false }
    mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/auth/sessions': () => ({ status: 200, body: { sessions: changed ? [here] : [here, phone] } }),
      'POST /_api/auth/change-password': () => { changed = true; return DONE },
    })
    renderApp(<><ChangePasswordForm /><ActiveSessions /></>)
    const list = await screen.findByRole('list', { name: 'Signed-in devices' })
    expect(await within(list).findAllByRole('listitem')).toHaveLength(2)
    await fill('the-right-one', 'a-new-password')
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1))
    expect(list).not.toHaveTextContent('Safari on iPhone')
  })

  it('shows a throttle above the form', async () => {
    mockServer({
      'GET /_api/auth/session': signedIn(),
      'POST /_api/auth/change-password': { status: 429, body: { error: 'Too many login attempts. Please try again in 15 minute(s).', code: 'rate_limited' } },
    })
    renderApp(<ChangePasswordForm />)
    await fill('a-wrong-guess', 'a-new-password')
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many login attempts. Please try again in 15 minute(s).')
  })
})
