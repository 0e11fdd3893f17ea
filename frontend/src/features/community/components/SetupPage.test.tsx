import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Route, Routes } from 'react-router-dom'
import { mockServer, renderApp, signedIn, signedOut } from '@/test-utils'
import { sampleSetup, stubCarouselDom } from '../testFixtures'
import { SetupPage } from './SetupPage'

beforeEach(() => stubCarouselDom())

afterEach(() => vi.unstubAllGlobals())

describe('a setup page', () => {
  it('shows the setup, its score and its comments', async () => {
    mockServer({
      'GET /_api/auth/session': signedOut,
      'GET /_api/community/setups/7': {
        status: 200,
        body: sampleSetup({ commentCount: 0, gear: [{ id: 3, name: 'LG 27GP850', category: 'monitor', hasLink: true }] }),
      },
      'GET /_api/community/comments': { status: 200, body: { comments: [], pagination: { total: 0, limit: 50, offset: 0, hasMore: false } } },
    })
    renderApp(<SetupPage setupId={7} />)
    expect(await screen.findByRole('heading', { name: 'Neon Den', level: 1 })).toBeInTheDocument()
    expect(screen.getByText('SetupIQ Score: 8.2/10')).toBeInTheDocument()
    // The gear's title is the next level under the page's h1 (headings in order).
    expect(screen.getByRole('heading', { name: 'Gear in this setup', level: 2 })).toBeInTheDocument()
    expect(await screen.findByText('No comments yet.', { exact: false })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Log in to comment' })).toBeInTheDocument()
  })

  it('says plainly when the setup is gone', async () => {
    mockServer({
      'GET /_api/auth/session': signedOut,
      'GET /_api/community/setups/9': { status: 404, body: { error: 'Setup not found.', code: 'not_found' } },
    })
    renderApp(<SetupPage setupId={9} />)
    expect(await screen.findByRole('heading', { name: 'Setup Not Found' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Back to Community' })).toHaveAttribute('href', '/community')
  })

  const noComments = { status: 200, body: { comments: [], pagination: { total: 0, limit: 50, offset: 0, hasMore: false } } }
  const onItsRoute = () =>
    renderApp(
      <Routes>
        <Route path="/community/setup/7" element={<SetupPage setupId={7} />} />
        <Route path="/my-posts" element={<h1>My Posts</h1>} />
      </Routes>,
      { route: '/community/setup/7' },
    )

  it('lets the owner edit and delete the post from its page, then leaves it', async () => {
    const server = mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/community/setups/7': { status: 200, body: sampleSetup({ uploaderId: 1, createdAt: new Date().toISOString() }) },
      'GET /_api/community/comments': noComments,
      'POST /_api/community/setup/delete': { status: 200, body: { success: true } },
    })
    onItsRoute()
    expect(await screen.findByRole('button', { name: 'Edit' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Report' })).not.toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }))
    const confirm = await screen.findByRole('dialog', { name: 'Delete Setup' })
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }))
    expect(await screen.findByRole('heading', { name: 'My Posts' })).toBeInTheDocument()
    expect(server.calls.find((c) => c.path === '/_api/community/setup/delete')?.body).toEqual({ setupId: 7 })
  })

  it('lets the owner fix a dead gear link after the edit window has closed', async () => {
    const server = mockServer({
      'GET /_api/auth/session': signedIn(),
      // Published a day ago: the photos and words are final, the gear is not.
      'GET /_api/community/setups/7': { status: 200, body: sampleSetup({ uploaderId: 1, createdAt: new Date(Date.now() - 86_400_000).toISOString() }) },
      'GET /_api/community/comments': noComments,
      'GET /_api/my-analyses': { status: 200, body: { analyses: [] } },
      'GET /_api/community/gear/7': {
        status: 200,
        body: { items: [{ id: 1, name: 'Monitor arm', category: 'other', url: 'https://shop.example.com/arm', hasLink: true, clicks: 2, linkDead: true }] },
      },
      'POST /_api/community/gear': { status: 200, body: { items: [] } },
    })
    onItsRoute()
    await userEvent.click(await screen.findByRole('button', { name: 'Edit gear' }))
    expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument()
    const dialog = await screen.findByRole('dialog', { name: 'Edit Your Gear' })
    expect(await within(dialog).findByText('Not working')).toBeInTheDocument()
    const link = within(dialog).getByLabelText('Shop link of gear 1 (optional)')
    await userEvent.clear(link)
    await userEvent.type(link, 'https://shop.example.com/arm-v2')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Gear' }))
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit Your Gear' })).not.toBeInTheDocument())
    expect(server.calls.find((c) => c.path === '/_api/community/gear')?.body).toEqual({
      setupId: 7,
      items: [{ name: 'Monitor arm', category: 'other', url: 'https://shop.example.com/arm-v2' }],
    })
    expect(server.calls.some((c) => c.path === '/_api/community/setup/edit')).toBe(false)
  })

  it("lets another member report the post from its page", async () => {
    const server = mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/community/setups/7': { status: 200, body: sampleSetup({ uploaderId: 2 }) },
      'GET /_api/community/comments': noComments,
      'POST /_api/community/report': { status: 200, body: { success: true, counted: true } },
    })
    onItsRoute()
    await userEvent.click(await screen.findByRole('button', { name: 'Report' }))
    expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument()
    const report = await screen.findByRole('dialog', { name: 'Report Content' })
    await userEvent.click(within(report).getByLabelText('Spam'))
    await userEvent.click(within(report).getByRole('button', { name: 'Submit Report' }))
    await waitFor(() => expect(server.calls.find((c) => c.path === '/_api/community/report')?.body).toEqual({ setupId: 7, reason: 'spam' }))
  })
})
