import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { RESET_REQUESTED } from '@/features/auth/components/ForgotPasswordForm'
import { mockServer, renderApp, signedOut } from '@/test-utils'
import Login from './Login'

afterEach(() => vi.unstubAllGlobals())

describe('/login', () => {
  it("offers 'Forgot Password?', which asks for a reset link and comes back", async () => {
    const { calls } = mockServer({
      'GET /_api/auth/session': signedOut,
      'POST /_api/auth/forgot-password': { status: 200, body: { success: true } },
    })
    renderApp(<Login />, { route: '/login?redirect=/profile' })
    expect(document.title).toBe('Log In · SetupIQ')
    await userEvent.click(screen.getByRole('button', { name: 'Forgot Password?' }))

    expect(screen.getByRole('heading', { name: 'Reset your password' })).toBeInTheDocument()
    await userEvent.type(screen.getByLabelText('Email'), 'pete@example.com')
    await userEvent.click(screen.getByRole('button', { name: 'Send Reset Link' }))
    expect(await screen.findByText(RESET_REQUESTED)).toBeInTheDocument()
    expect(calls.find((c) => c.path === '/_api/auth/forgot-password')?.body).toEqual({ email: 'pete@example.com' })

    await userEvent.click(screen.getByRole('button', { name: 'Back to Login' }))
    expect(screen.getByRole('heading', { name: 'Sign in to continue' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Log In' })).toBeInTheDocument()
  })
})
