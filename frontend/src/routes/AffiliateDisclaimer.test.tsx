import { screen } from '@testing-library/react'
import { mockServer, renderApp, signedOut, siteReply } from '@/test-utils'
import AffiliateDisclaimer from './AffiliateDisclaimer'

afterEach(() => vi.unstubAllGlobals())

it('names the support address the server is configured with, not a made-up one', async () => {
  mockServer({ 'GET /_api/auth/session': signedOut, 'GET /_api/site': siteReply({ supportEmail: 'help@riglabs.example' }) })
  renderApp(<AffiliateDisclaimer />)
  const link = await screen.findByRole('link', { name: 'help@riglabs.example' })
  expect(link).toHaveAttribute('href', 'mailto:help@riglabs.example')
  expect(screen.queryByText(/setupiq\.example/)).not.toBeInTheDocument()
})
