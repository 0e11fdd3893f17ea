import { screen } from '@testing-library/react'
import { CookieConsentProvider } from '@/features/cookies/CookieConsent'
import { CONSENT_KEY } from '@/lib/cookieConsent'
import { mockServer, renderApp, signedOut, siteReply } from '@/test-utils'
import { AdSlot } from './AdSlot'

afterEach(() => {
  vi.unstubAllGlobals()
  localStorage.clear()
  document.getElementById('setupiq-adsense')?.remove()
})

function renderSlot(adsenseClient: string | null, consent: 'accepted' | 'declined') {
  localStorage.setItem(CONSENT_KEY, consent)
  const server = mockServer({ 'GET /_api/auth/session': signedOut, 'GET /_api/site': siteReply({ adsenseClient }) })
  renderApp(
    <CookieConsentProvider>
      <AdSlot slot="footer-banner" />
      <p>page</p>
    </CookieConsentProvider>,
  )
  return server
}

it('shows nothing at all without an ad client', async () => {
  const server = renderSlot(null, 'accepted')
  await vi.waitFor(() => expect(server.calls.some((c) => c.path === '/_api/site')).toBe(true))
  await screen.findByText('page')
  expect(screen.queryByRole('complementary', { name: 'Advertisement' })).not.toBeInTheDocument()
  expect(screen.queryByText('Advertisement')).not.toBeInTheDocument()
  expect(document.getElementById('setupiq-adsense')).toBeNull()
})

it('shows the configured ad unit once cookies are accepted, and loads the ad script once', async () => {
  renderSlot('ca-pub-123', 'accepted')
  const slot = await screen.findByRole('complementary', { name: 'Advertisement' })
  const unit = slot.querySelector('ins.adsbygoogle')
  expect(unit).toHaveAttribute('data-ad-client', 'ca-pub-123')
  expect(unit).toHaveAttribute('data-ad-slot', 'footer-banner')
  expect(unit).toHaveAttribute('data-ad-format', 'auto')
  expect(unit).toHaveAttribute('data-full-width-responsive', 'true')
  expect(document.querySelectorAll('#setupiq-adsense')).toHaveLength(1)
  expect(document.getElementById('setupiq-adsense')).toHaveAttribute('src', expect.stringContaining('client=ca-pub-123'))
})

it('shows no ad to a visitor who declined cookies', async () => {
  const server = renderSlot('ca-pub-123', 'declined')
  await vi.waitFor(() => expect(server.calls.some((c) => c.path === '/_api/site')).toBe(true))
  await screen.findByText('page')
  expect(screen.queryByRole('complementary', { name: 'Advertisement' })).not.toBeInTheDocument()
})
