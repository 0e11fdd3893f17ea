import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { mockServer, renderApp, signedIn } from '@/test-utils'
import { ActiveSessions } from './ActiveSessions'

afterEach(() => vi.unstubAllGlobals())

const HERE = { device: 'Firefox on Windows', signedInAt: '2026-03-14T09:00:00Z', lastSeenAt: '2026-03-14T09:30:00Z', current: true }
const PHONE = { device: 'Safari on iPhone', signedInAt: '2026-03-10T09:00:00Z', lastSeenAt: '2026-03-13T09:00:00Z', current: false }

describe('ActiveSessions', () => {
  it('lists the signed-in devices, this one marked, and signs the others out', async () => {
    let signedOut = false
    const { calls } = mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/auth/sessions': () => ({ status: 200, body: { sessions: signedOut ? [HERE] : [HERE, PHONE] } }),
      'POST /_api/auth/sessions/end-others': () => {
        signedOut = true
        return { status: 200, body: { ended: 1 } }
      },
    })
    renderApp(<ActiveSessions />)
    const list = await screen.findByRole('list', { name: 'Signed-in devices' })
    const items = await within(list).findAllByRole('listitem')
    expect(items).toHaveLength(2)
    expect(items[0]).toHaveTextContent('Firefox on Windows')
    expect(items[0]).toHaveTextContent('This device')
    expect(items[1]).toHaveTextContent('Safari on iPhone')
    expect(items[1]).not.toHaveTextContent('This device')
    expect(items[1]).toHaveTextContent(/last active/)

    await userEvent.click(screen.getByRole('button', { name: 'Sign Out Everywhere Else' }))
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1))
    expect(calls.some((c) => c.method === 'POST' && c.path === '/_api/auth/sessions/end-others')).toBe(true)
  })

  it('says when the list cannot be loaded', async () => {
    mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/auth/sessions': { status: 401, body: { error: 'Not authenticated', code: 'unauthenticated' } },
    })
    renderApp(<ActiveSessions />)
    expect(await screen.findByRole('alert')).toHaveTextContent('Not authenticated')
  })
})
