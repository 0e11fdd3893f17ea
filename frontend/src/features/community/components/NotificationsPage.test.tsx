import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { mockServer, renderApp, signedIn } from '@/test-utils'
import { NotificationBell } from './NotificationBell'
import { NotificationsPage } from './NotificationsPage'

const inbox = (unread: number) => ({
  status: 200,
  body: {
    notifications: [
      { id: 3, kind: 'reply', actorName: 'Gina', setupId: 7, setupTitle: 'Neon Den', commentId: 9, excerpt: 'An Ergotron LX', sentence: 'Gina replied to your comment on “Neon Den”', path: '/community/setup/7', createdAt: new Date().toISOString(), read: unread === 0 },
      { id: 2, kind: 'comment', actorName: null, setupId: 8, setupTitle: null, commentId: 5, excerpt: null, sentence: 'Someone commented on your setup', path: '/community/setup/8', createdAt: new Date().toISOString(), read: true },
    ],
    unread,
    pagination: { total: 2, limit: 10, offset: 0, hasMore: false },
  },
})

describe('notifications', () => {
  it('the bell shows the unread count and leads to the list', async () => {
    mockServer({ 'GET /_api/auth/session': signedIn(), 'GET /_api/notifications/unread': { status: 200, body: { unread: 1 } } })
    renderApp(<NotificationBell />)
    const bell = await screen.findByRole('link', { name: 'Notifications, 1 unread' })
    expect(bell).toHaveAttribute('href', '/notifications')
    expect(screen.getByTestId('bell-count')).toHaveTextContent('1')
  })

  it('lists who said what where, links to the setup, and marks read', async () => {
    let unread = 1
    const server = mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/notifications': () => inbox(unread),
      'POST /_api/notifications/read': () => {
        unread = 0
        return { status: 200, body: { success: true, marked: 1 } }
      },
    })
    renderApp(<NotificationsPage />)
    const reply = await screen.findByRole('link', { name: 'Gina replied to your comment on “Neon Den”' })
    expect(reply).toHaveAttribute('href', '/community/setup/7')
    expect(screen.getByText('An Ergotron LX')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Someone commented on your setup' })).toHaveAttribute('href', '/community/setup/8')
    await userEvent.click(screen.getByRole('button', { name: 'Mark all as read' }))
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Mark all as read' })).not.toBeInTheDocument())
    expect(server.calls.find((c) => c.path === '/_api/notifications/read')?.body).toEqual({ all: true })
  })

  it("shows the server's sentence of each notice, links it where the server says, and gives a notice that leads nowhere a Mark as read", async () => {
    const server = mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/notifications': {
        status: 200,
        body: {
          notifications: [
            { id: 7, kind: 'top_week', actorName: null, setupId: 9, setupTitle: 'Neon Den', commentId: null, excerpt: 'Neon Den', sentence: "Your setup “Neon Den” reached this week's top 3!", path: '/community/setup/9', createdAt: new Date().toISOString(), read: true },
            { id: 6, kind: 'post_removed', actorName: null, setupId: null, setupTitle: null, commentId: null, excerpt: 'Neon Den', sentence: 'A moderator removed your post “Neon Den”', path: null, createdAt: new Date().toISOString(), read: false },
            { id: 5, kind: 'report_dismissed', actorName: null, setupId: 8, setupTitle: 'Desk', commentId: null, excerpt: 'Nice lamp', sentence: 'A moderator reviewed “Nice lamp” you reported and kept it.', path: '/community/setup/8', createdAt: new Date().toISOString(), read: true },
            { id: 4, kind: 'report_upheld', actorName: null, setupId: null, setupTitle: null, commentId: null, excerpt: 'Spam rig', sentence: 'A moderator removed “Spam rig” you reported. Thank you.', path: null, createdAt: new Date().toISOString(), read: true },
            { id: 3, kind: 'rigpage_link_dead', actorName: null, setupId: null, setupTitle: null, commentId: null, excerpt: 'Merch store', sentence: 'A link on your RigPage, “Merch store”, stopped working: fix or remove it.', path: '/rigpage-config', createdAt: new Date().toISOString(), read: true },
          ],
          unread: 1,
          pagination: { total: 5, limit: 10, offset: 0, hasMore: false },
        },
      },
      'POST /_api/notifications/read': { status: 200, body: { success: true, marked: 1 } },
    })
    renderApp(<NotificationsPage />)
    expect(await screen.findByText('A moderator removed your post “Neon Den”')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: "Your setup “Neon Den” reached this week's top 3!" })).toHaveAttribute('href', '/community/setup/9')
    expect(screen.getByRole('link', { name: 'A moderator reviewed “Nice lamp” you reported and kept it.' })).toHaveAttribute('href', '/community/setup/8')
    expect(screen.getByText('A moderator removed “Spam rig” you reported. Thank you.')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'A link on your RigPage, “Merch store”, stopped working: fix or remove it.' })).toHaveAttribute('href', '/rigpage-config')
    expect(screen.queryByRole('link', { name: /removed/ })).not.toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Mark as read' }))
    await waitFor(() => expect(server.calls.find((c) => c.path === '/_api/notifications/read')?.body).toEqual({ ids: [6] }))
  })

  it('turns the daily digest on, and only for a verified address', async () => {
    let emailDigest = false
    const server = mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/notifications': inbox(0),
      'GET /_api/notifications/settings': () => ({ status: 200, body: { emailDigest, emailVerified: true } }),
      'POST /_api/notifications/settings': (body) => {
        emailDigest = (body as { emailDigest: boolean }).emailDigest
        return { status: 200, body: { emailDigest, emailVerified: true } }
      },
    })
    renderApp(<NotificationsPage />)
    const digest = await screen.findByRole('checkbox', { name: 'E-mail me a daily digest of unread notifications' })
    expect(digest).not.toBeChecked()
    await userEvent.click(digest)
    await waitFor(() => expect(digest).toBeChecked())
    expect(server.calls.find((c) => c.method === 'POST' && c.path === '/_api/notifications/settings')?.body).toEqual({ emailDigest: true })
  })

  it('leaves the digest off until the address is verified', async () => {
    mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/notifications': inbox(0),
      'GET /_api/notifications/settings': { status: 200, body: { emailDigest: false, emailVerified: false } },
    })
    renderApp(<NotificationsPage />)
    expect(await screen.findByRole('checkbox', { name: 'E-mail me a daily digest of unread notifications' })).toBeDisabled()
    expect(screen.getByText('Verify your e-mail address to get the digest.')).toBeInTheDocument()
  })
})
