import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useAuth } from '@/lib/auth'
import { mockServer, renderApp, signedIn, signedOut } from '@/test-utils'
import VerifyEmail from './VerifyEmail'

afterEach(() => vi.unstubAllGlobals())

const verifiedUser = signedIn({ emailVerified: true }).body as { user: Record<string, unknown> }

function SessionProbe() {
  const { user } = useAuth()
  return <p data-testid="probe">{user ? `verified: ${String(user.emailVerified)}` : 'signed out'}</p>
}

describe('/verify-email', () => {
  it('posts the token once, says the address is verified and updates the session', async () => {
    const server = mockServer({
      'GET /_api/auth/session': signedIn({ emailVerified: false }),
      'POST /_api/auth/verify-email': { status: 200, body: { success: true, ...verifiedUser } },
    })
    renderApp(
      <>
        <VerifyEmail />
        <SessionProbe />
      </>,
      { route: '/verify-email?token=abc123' },
    )
    expect(document.title).toBe('Verify E-mail · SetupIQ')
    expect(await screen.findByRole('heading', { name: 'E-mail Verified' })).toBeInTheDocument()
    expect(screen.getByText('Thank you: pete@example.com is verified.')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Go Homepage' })).toHaveAttribute('href', '/')
    expect(await screen.findByTestId('probe')).toHaveTextContent('verified: true')
    expect(server.calls.filter((c) => c.path === '/_api/auth/verify-email')).toEqual([
      { method: 'POST', path: '/_api/auth/verify-email', body: { token: 'abc123' } },
    ])
  })

  it('says the address is verified without naming it when the browser is not signed in as the account', async () => {
    mockServer({
      'GET /_api/auth/session': signedOut,
      'POST /_api/auth/verify-email': { status: 200, body: { success: true } },
    })
    renderApp(
      <>
        <VerifyEmail />
        <SessionProbe />
      </>,
      { route: '/verify-email?token=abc123' },
    )
    expect(await screen.findByRole('heading', { name: 'E-mail Verified' })).toBeInTheDocument()
    expect(screen.getByText('Thank you: the e-mail address is verified.')).toBeInTheDocument()
    expect(screen.getByTestId('probe')).toHaveTextContent('signed out')
  })

  it("shows the server's reason and offers Resend to the signed-in owner", async () => {
    const server = mockServer({
      'GET /_api/auth/session': signedIn({ emailVerified: false }),
      'POST /_api/auth/verify-email': {
        status: 400,
        body: { error: 'This verification link has expired: links work for 24 hours. Please ask for a new one.', code: 'validation_failed' },
      },
      'POST /_api/auth/verify-email/resend': { status: 200, body: { success: true, message: 'We sent a new verification link. Please check your inbox.' } },
    })
    renderApp(<VerifyEmail />, { route: '/verify-email?token=old' })
    expect(await screen.findByRole('heading', { name: 'Verification Failed' })).toBeInTheDocument()
    expect(screen.getByText('This verification link has expired: links work for 24 hours. Please ask for a new one.')).toBeInTheDocument()
    await userEvent.click(await screen.findByRole('button', { name: 'Resend' }))
    expect(await screen.findByRole('status')).toHaveTextContent('We sent a new verification link.')
    expect(server.calls.filter((c) => c.path === '/_api/auth/verify-email/resend')).toHaveLength(1)
  })

  it('offers no Resend to a visitor, and says when the link has no token', async () => {
    mockServer({
      'GET /_api/auth/session': signedOut,
      'POST /_api/auth/verify-email': {
        status: 400,
        body: { error: 'This verification link has already been used. Please ask for a new one if your address is not verified yet.', code: 'validation_failed' },
      },
    })
    const { unmount } = renderApp(<VerifyEmail />, { route: '/verify-email?token=used' })
    expect(await screen.findByText('This verification link has already been used. Please ask for a new one if your address is not verified yet.')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Resend' })).not.toBeInTheDocument()
    unmount()
    renderApp(<VerifyEmail />, { route: '/verify-email' })
    expect(await screen.findByText('No verification token found. Please open the whole link from the e-mail we sent you.')).toBeInTheDocument()
  })
})
