import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Toaster } from 'sonner'
import { mockServer, renderApp, signedIn } from '@/test-utils'
import { DeleteAccountDialog } from './DeleteAccountDialog'

afterEach(() => vi.unstubAllGlobals())

const WRONG = { status: 400, body: { error: 'Your current password is incorrect.', code: 'validation_failed', issues: [{ path: 'currentPassword', message: 'Your current password is incorrect.' }] } }
const DELETED = { status: 200, body: { success: true, message: 'Account deleted successfully' } }

describe('DeleteAccountDialog', () => {
  it('asks for the password before calling the server', async () => {
    const { calls } = mockServer({ 'GET /_api/auth/session': signedIn() })
    renderApp(<DeleteAccountDialog open onOpenChange={() => {}} />)
    await userEvent.click(await screen.findByRole('button', { name: 'Delete My Account' }))
    expect(await screen.findByText('Please enter your current password.')).toBeInTheDocument()
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0)
  })

  it('shows a wrong password under its field, then deletes with the right one', async () => {
    let attempts = 0
    const { calls } = mockServer({
      'GET /_api/auth/session': signedIn(),
      'POST /_api/auth/delete-account': () => (++attempts === 1 ? WRONG : DELETED),
    })
    const closed = vi.fn()
    renderApp(<><Toaster /><DeleteAccountDialog open onOpenChange={closed} /></>)
    const password = await screen.findByLabelText('Current password')
    await userEvent.type(password, 'a-wrong-guess')
    await userEvent.click(screen.getByRole('button', { name: 'Delete My Account' }))
    await waitFor(() => expect(password).toHaveAccessibleDescription(/Your current password is incorrect\./))
    expect(closed).not.toHaveBeenCalled()
    await userEvent.clear(password)
    await userEvent.type(password, 'the-right-one')
    await userEvent.click(screen.getByRole('button', { name: 'Delete My Account' }))
    expect(await screen.findByText('Account deleted successfully')).toBeInTheDocument()
    expect(closed).toHaveBeenCalledWith(false)
    expect(calls.filter((c) => c.method === 'POST').at(-1)).toEqual({ method: 'POST', path: '/_api/auth/delete-account', body: { currentPassword: 'the-right-one' } })
  })

  it('says what money bought is lost: the paid Pro time left and the credits', async () => {
    mockServer({
      'GET /_api/auth/session': signedIn({ isPro: true, credits: 12 }),
      'GET /_api/pro': {
        status: 200,
        body: { plans: [], testMode: true, isPro: true, grantedByAdmin: false, subscription: { plan: 'yearly', status: 'active', currentPeriodEnd: '2099-04-14T09:00:00Z', cancelAtPeriodEnd: false } },
      },
    })
    renderApp(<DeleteAccountDialog open onOpenChange={() => {}} />)
    const dialog = await screen.findByRole('dialog', { name: 'Delete Account' })
    expect(await within(dialog).findByText('Your Pro subscription: it ends now, and the paid time until April 14, 2099 is not refunded')).toBeInTheDocument()
    expect(within(dialog).getByText('Your 12 remaining credits, which are not refunded')).toBeInTheDocument()
  })

  it('names no credits or Pro to a free member with none', async () => {
    const { calls } = mockServer({ 'GET /_api/auth/session': signedIn({ credits: 0 }) })
    renderApp(<DeleteAccountDialog open onOpenChange={() => {}} />)
    const dialog = await screen.findByRole('dialog', { name: 'Delete Account' })
    expect(within(dialog).getByText('All associated data')).toBeInTheDocument()
    await waitFor(() => expect(calls.some((c) => c.path === '/_api/auth/session')).toBe(true))
    expect(dialog).not.toHaveTextContent(/credit|Pro/)
    expect(calls.some((c) => c.path === '/_api/pro')).toBe(false)
  })
})
