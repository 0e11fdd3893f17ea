import { screen } from '@testing-library/react'
import { CookieConsentProvider } from '@/features/cookies/CookieConsent'
import { mockServer, renderApp, signedOut } from '@/test-utils'
import { Footer } from './Footer'

afterEach(() => {
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

describe('footer', () => {
  it('dates the copyright with the current year', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(new Date('2031-02-01T12:00:00Z'))
    mockServer({ 'GET /_api/auth/session': signedOut })
    renderApp(
      <CookieConsentProvider>
        <Footer />
      </CookieConsentProvider>,
    )
    expect(await screen.findByText('© 2031 SetupIQ. All rights reserved.')).toBeInTheDocument()
  })
})
