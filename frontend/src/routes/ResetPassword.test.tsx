import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { mockServer, renderApp, signedOut } from '@/test-utils'
import ResetPassword from './ResetPassword'

afterEach(() => vi.unstubAllGlobals())

describe('/reset-password', () => {
  it("shows the server's refusal until a password field is edited", async () => {
    mockServer({
      'GET /_api/auth/session': signedOut,
      'POST /_api/auth/verify-reset-token': { status: 200, body: { valid: true, email: 'pete@example.com' } },
      'POST /_api/auth/reset-password': { status: 400, body: { error: 'This password reset link has already been used.', code: 'bad_request' } },
    })
    renderApp(<ResetPassword />, { route: '/reset-password?token=abc' })
    expect(document.title).toBe('Reset Password · SetupIQ')
    expect(await screen.findByTestId('reset-email')).toHaveTextContent('pete@example.com')
    await userEvent.type(screen.getByLabelText('New Password'), 'hunter2hunter2')
    await userEvent.type(screen.getByLabelText('Confirm New Password'), 'hunter2hunter2')
    await userEvent.click(screen.getByRole('button', { name: 'Reset Password' }))
    expect(await screen.findByText('This password reset link has already been used.')).toBeInTheDocument()

    await userEvent.type(screen.getByLabelText('Confirm New Password'), '{Backspace}2')
    expect(screen.queryByText('This password reset link has already been used.')).not.toBeInTheDocument()
  })
})
