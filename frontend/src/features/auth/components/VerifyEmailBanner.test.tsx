import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { mockServer, renderApp, signedIn, signedOut } from '@/test-utils'
import { useAuth } from '@/lib/auth'
import { VerifyEmailBanner } from './VerifyEmailBanner'

function SessionLoaded() {
  const { state } = useAuth()
  return state.status === 'loading' ? null : <p data-testid="session-loaded" />
}

afterEach(() => vi.unstubAllGlobals())

describe('the verification banner', () => {
  it('asks a signed-in user with an unverified address, and resends the link', async () => {
    const server = mockServer({
      'GET /_api/auth/session': signedIn({ emailVerified: false }),
      'POST /_api/auth/verify-email/resend': { status: 200, body: { success: true, message: 'We sent a new verification link. Please check your inbox.' } },
    })
    renderApp(<VerifyEmailBanner />)
    const banner = await screen.findByRole('region', { name: 'E-mail verification' })
    expect(banner).toHaveTextContent('Please verify your e-mail address: we sent a link to pete@example.com.')
    await userEvent.click(screen.getByRole('button', { name: 'Resend' }))
    expect(await screen.findByRole('status')).toHaveTextContent('We sent a new verification link. Please check your inbox.')
    expect(server.calls.filter((c) => c.path === '/_api/auth/verify-email/resend')).toEqual([
      { method: 'POST', path: '/_api/auth/verify-email/resend', body: {} },
    ])
  })

  it("says why a resend was refused (the server's words)", async () => {
    mockServer({
      'GET /_api/auth/session': signedIn({ emailVerified: false }),
      'POST /_api/auth/verify-email/resend': {
        status: 429,
        body: { error: 'You have asked for 5 verification e-mails in the last hour. Please try again in 50 minute(s).', code: 'rate_limited' },
      },
    })
    renderApp(<VerifyEmailBanner />)
    await userEvent.click(await screen.findByRole('button', { name: 'Resend' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Please try again in 50 minute(s).')
    expect(screen.getByRole('button', { name: 'Resend' })).toBeEnabled()
  })

  it.each([
    ['a verified user', signedIn()],
    ['a visitor', signedOut],
  ])('stays away for %s', async (_, session) => {
    mockServer({ 'GET /_api/auth/session': session })
    renderApp(
      <>
        <VerifyEmailBanner />
        <SessionLoaded />
      </>,
    )
    await screen.findByTestId('session-loaded')
    expect(screen.queryByRole('region', { name: 'E-mail verification' })).not.toBeInTheDocument()
  })
})
