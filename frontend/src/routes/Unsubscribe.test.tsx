import { screen } from '@testing-library/react'
import { mockServer, renderApp, signedOut } from '@/test-utils'
import Unsubscribe from './Unsubscribe'

describe('/unsubscribe', () => {
  it('unsubscribes with the one click that opened it, without signing in', async () => {
    const server = mockServer({
      'GET /_api/auth/session': signedOut,
      'POST /_api/notifications/unsubscribe': { status: 200, body: { success: true } },
    })
    renderApp(<Unsubscribe />, { route: '/unsubscribe?token=abc123' })
    expect(await screen.findByRole('heading', { name: "You're Unsubscribed" })).toBeInTheDocument()
    const calls = server.calls.filter((c) => c.path === '/_api/notifications/unsubscribe')
    expect(calls).toHaveLength(1)
    expect(calls[0]?.search).toBe('?token=abc123')
  })

  it("says why a used or unknown link did nothing", async () => {
    mockServer({
      'GET /_api/auth/session': signedOut,
      'POST /_api/notifications/unsubscribe': { status: 404, body: { error: 'This unsubscribe link is no longer valid. Sign in to change your e-mail settings.', code: 'not_found' } },
    })
    renderApp(<Unsubscribe />, { route: '/unsubscribe?token=used' })
    expect(await screen.findByText('This unsubscribe link is no longer valid. Sign in to change your e-mail settings.')).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: 'Unsubscribe Failed' })).toBeInTheDocument()
  })
})
