import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Toaster } from 'sonner'
import { mockServer, renderApp, signedIn } from '@/test-utils'
import { ChangeEmailForm } from './ChangeEmailForm'

afterEach(() => vi.unstubAllGlobals())

const TAKEN = { status: 409, body: { error: 'Email already in use', code: 'email_taken' } }
const SENT = { status: 200, body: { success: true, message: 'We sent a link to new@example.com. Your address changes when you open it.' } }

async function fill(email: string, password: string) {
  await userEvent.type(screen.getByLabelText('New e-mail address'), email)
  if (password) await userEvent.type(screen.getByLabelText('Current password'), password)
  await userEvent.click(screen.getByRole('button', { name: 'Send Link' }))
}

describe('ChangeEmailForm', () => {
  it('checks the address and asks for the password before calling the server', async () => {
    const { calls } = mockServer({ 'GET /_api/auth/session': signedIn() })
    renderApp(<ChangeEmailForm onDone={() => {}} />)
    await fill('not an address', '')
    expect(await screen.findByText('Please enter a valid email address.')).toBeInTheDocument()
    expect(screen.getByText('Please enter your current password.')).toBeInTheDocument()
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0)
  })

  it('shows a taken address under its field, then sends the link and closes', async () => {
    let attempts = 0
    const { calls } = mockServer({
      'GET /_api/auth/session': signedIn(),
      'POST /_api/auth/change-email': () => (++attempts === 1 ? TAKEN : SENT),
    })
    const done = vi.fn()
    renderApp(<><Toaster /><ChangeEmailForm onDone={done} /></>)
    await fill('someone@example.com', 'my-password')
    const email = screen.getByLabelText('New e-mail address')
    await waitFor(() => expect(email).toHaveAccessibleDescription(/Email already in use/))
    await userEvent.clear(email)
    await userEvent.type(email, 'New@Example.com')
    await userEvent.click(screen.getByRole('button', { name: 'Send Link' }))
    expect(await screen.findByText('We sent a link to new@example.com. Your address changes when you open it.')).toBeInTheDocument()
    expect(done).toHaveBeenCalled()
    expect(calls.at(-1)).toEqual({ method: 'POST', path: '/_api/auth/change-email', body: { newEmail: 'New@Example.com', currentPassword: 'my-password' } })
  })
})
