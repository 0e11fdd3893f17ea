import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { mockServer, renderApp, signedOut } from '@/test-utils'
import { ForgotPasswordForm, RESET_REQUESTED } from './ForgotPasswordForm'

afterEach(() => vi.unstubAllGlobals())

describe('ForgotPasswordForm', () => {
  it("shows the server's refusal under the email until the email is edited", async () => {
    let tries = 0
    mockServer({
      'GET /_api/auth/session': signedOut,
      'POST /_api/auth/forgot-password': () =>
        ++tries === 1
          ? { status: 429, body: { error: 'Too many reset requests. Please try again later.', code: 'rate_limited' } }
          : { status: 200, body: { success: true } },
    })
    renderApp(<ForgotPasswordForm onBack={() => {}} />)
    await userEvent.type(screen.getByLabelText('Email'), 'pete@example.com')
    await userEvent.click(screen.getByRole('button', { name: 'Send Reset Link' }))
    expect(await screen.findByText('Too many reset requests. Please try again later.')).toBeInTheDocument()
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true')

    await userEvent.type(screen.getByLabelText('Email'), '{Backspace}m')
    expect(screen.queryByText('Too many reset requests. Please try again later.')).not.toBeInTheDocument()
    expect(screen.getByLabelText('Email')).not.toHaveAttribute('aria-invalid')

    await userEvent.click(screen.getByRole('button', { name: 'Send Reset Link' }))
    expect(await screen.findByText(RESET_REQUESTED)).toBeInTheDocument()
  })
})
