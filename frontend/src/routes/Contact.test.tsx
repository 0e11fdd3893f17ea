import { screen } from '@testing-library/react'
import { mockServer, renderApp, signedOut, siteReply } from '@/test-utils'
import Contact from './Contact'

afterEach(() => vi.unstubAllGlobals())

it('names the support and business addresses as the server is configured', async () => {
  mockServer({
    'GET /_api/auth/session': signedOut,
    'GET /_api/site': siteReply({ supportEmail: 'help@riglabs.example', businessEmail: 'press@riglabs.example' }),
  })
  renderApp(<Contact />)
  const link = await screen.findByRole('link', { name: 'help@riglabs.example' })
  expect(link).toHaveAttribute('href', 'mailto:help@riglabs.example')
  expect(screen.getByRole('link', { name: 'press@riglabs.example' })).toHaveAttribute(
    'href',
    'mailto:press@riglabs.example',
  )
  expect(screen.queryByText(/@setupiq\.example/)).not.toBeInTheDocument()
})
