import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { mockServer, renderApp, signedIn, signedOut } from '@/test-utils'
import { sampleSetup } from '../testFixtures'
import { MyPostsPage } from './MyPostsPage'
import { TopSetupsThisWeek } from './TopSetupsThisWeek'
import { UserProfilePage } from './UserProfilePage'

afterEach(() => vi.unstubAllGlobals())

const profile = (overrides: Record<string, unknown> = {}) => ({
  user: { id: 2, username: 'Gamer_Gina', displayName: 'Gina', profilePicture: null, isPro: true, createdAt: '2026-03-14T09:26:53Z' },
  stats: { totalPosts: 1, totalLikes: 5, averageScore: 5 },
  rigPage: { enabled: true, slug: 'gina' },
  recentPosts: [sampleSetup()],
  ...overrides,
})

describe('MyPostsPage', () => {
  it('shows the summary and the posts', async () => {
    mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/community/my-posts/analytics': {
        status: 200,
        body: {
          posts: [{ id: 1, title: 'Neon Den', description: null, createdAt: '2026-03-14T09:26:53Z', score: 4, imageCount: 2, analysisId: 3, thumbnailUrl: '/t.jpg', hidden: false, gearClicks: 0 }],
          summary: { totalPosts: 1, totalUpvotes: 4, averageScore: 4, bestPostScore: 4 },
        },
      },
    })
    renderApp(<MyPostsPage />)
    const stats = await screen.findByTestId('post-stats')
    for (const label of ['Total Posts', 'Total Upvotes', 'Average SetupIQ Score', 'Best Post Score']) expect(within(stats).getByText(label)).toBeInTheDocument()
    expect(within(stats).getByText('4.0')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'View Neon Den' }))
    // The dialog leads to the post's own page (where it can be edited or deleted).
    const dialog = await screen.findByRole('dialog', { name: 'Neon Den' })
    expect(within(dialog).getByRole('link', { name: 'Open the post' })).toHaveAttribute('href', '/community/setup/1')
  })

  it('marks the posts that reports have hidden', async () => {
    const post = { description: null, createdAt: '2026-03-14T09:26:53Z', score: 4, imageCount: 1, thumbnailUrl: null, gearClicks: 0 }
    mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/community/my-posts/analytics': {
        status: 200,
        body: {
          posts: [
            { ...post, id: 1, title: 'Neon Den', analysisId: 3, hidden: true },
            { ...post, id: 2, title: 'Clean Desk', analysisId: 4, hidden: false },
          ],
          summary: { totalPosts: 2, totalUpvotes: 8, averageScore: 4, bestPostScore: 4 },
        },
      },
    })
    renderApp(<MyPostsPage />)
    const hidden = await screen.findByRole('button', { name: 'View Neon Den' })
    const why = 'Hidden from others until a moderator reviews the reports.'
    expect(within(hidden).getByText('Hidden')).toBeVisible()
    expect(within(hidden).getByTitle(why)).toHaveTextContent('Hidden')
    expect(hidden).toHaveAccessibleDescription(why)
    const visible = screen.getByRole('button', { name: 'View Clean Desk' })
    expect(within(visible).queryByText('Hidden')).not.toBeInTheDocument()
    expect(within(visible).queryByTitle(why)).not.toBeInTheDocument()
    expect(visible).not.toHaveAttribute('aria-describedby')
  })

  it('asks visitors to log in', async () => {
    mockServer({ 'GET /_api/auth/session': signedOut })
    renderApp(<MyPostsPage />)
    expect(await screen.findByRole('heading', { name: 'View Your Posts' })).toBeInTheDocument()
  })

  it('shows the empty state with a link to the community', async () => {
    mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/community/my-posts/analytics': { status: 200, body: { posts: [], summary: { totalPosts: 0, totalUpvotes: 0, averageScore: 0, bestPostScore: 0 } } },
    })
    renderApp(<MyPostsPage />)
    expect(await screen.findByRole('heading', { name: 'No Posts Yet' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Go to Community' })).toHaveAttribute('href', '/community')
  })
})

describe('UserProfilePage', () => {
  it('shows the profile, stats, RigPage link and posts', async () => {
    mockServer({ 'GET /_api/auth/session': signedOut, 'GET /_api/community/user-profile': { status: 200, body: profile() } })
    renderApp(<UserProfilePage userId={2} />)
    const title = await screen.findByRole('heading', { name: "Gina's Profile" })
    // The name is said once, in the title, not again as a subtitle.
    expect(within(title.closest('header')!).getAllByText(/(^|\s)Gina\b/)).toEqual([title])
    expect(document.title).toBe("Gina's Profile · SetupIQ")
    expect(screen.getByText('@Gamer_Gina · Member since March 2026')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'View RigPage' })).toHaveAttribute('href', '/rig/gina')
    expect(within(screen.getByTestId('profile-stats')).getByText('5.0')).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: 'Neon Den' })).toBeInTheDocument()
  })

  it('says when a member has not posted', async () => {
    mockServer({ 'GET /_api/auth/session': signedOut, 'GET /_api/community/user-profile': { status: 200, body: profile({ recentPosts: [], rigPage: { enabled: false, slug: null } }) } })
    renderApp(<UserProfilePage userId={2} />)
    expect(await screen.findByText("Gina hasn't posted anything yet.")).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'View RigPage' })).not.toBeInTheDocument()
  })

  it('shows User Not Found on 404 and Something Went Wrong otherwise', async () => {
    mockServer({ 'GET /_api/auth/session': signedOut, 'GET /_api/community/user-profile': { status: 404, body: { error: 'User not found.', code: 'not_found' } } })
    const { unmount } = renderApp(<UserProfilePage userId={99} />)
    expect(await screen.findByRole('heading', { name: 'User Not Found' })).toBeInTheDocument()
    expect(document.title).toBe('User Not Found · SetupIQ')
    expect(screen.getByRole('link', { name: 'Back to Community' })).toHaveAttribute('href', '/community')
    unmount()
    mockServer({ 'GET /_api/auth/session': signedOut, 'GET /_api/community/user-profile': { status: 500, body: { error: 'Boom', code: 'internal' } } })
    renderApp(<UserProfilePage userId={99} />)
    expect(await screen.findByRole('heading', { name: 'Something Went Wrong' })).toBeInTheDocument()
  })
})

describe('TopSetupsThisWeek', () => {
  it("shows this week's top setups with their marks", async () => {
    mockServer({
      'GET /_api/auth/session': signedOut,
      'GET /_api/community/setups': { status: 200, body: { setups: [sampleSetup({ id: 1, title: 'First' }), sampleSetup({ id: 2, title: 'Second', score: 0 })], pagination: { total: 2, limit: 3, offset: 0, hasMore: false }, reportedByYou: 0 } },
    })
    renderApp(<TopSetupsThisWeek />)
    const top = await screen.findByTestId('home-top-setups')
    expect(within(top).getByText('#1 Top of The Week')).toBeInTheDocument()
    // Nobody voted for the second: no winner badge.
    expect(within(top).queryByText('#2 Top of The Week')).not.toBeInTheDocument()
    expect(within(top).getByRole('link', { name: 'Second' })).toHaveAttribute('href', '/community')
  })

  it('shows nothing when the list fails', async () => {
    mockServer({ 'GET /_api/auth/session': signedOut })
    const { container } = renderApp(<TopSetupsThisWeek />)
    await new Promise((r) => setTimeout(r, 50))
    expect(container).toBeEmptyDOMElement()
  })
})

describe('read failures', () => {
  it('toasts when the posts cannot be read', async () => {
    const { toast } = await import('sonner')
    const error = vi.spyOn(toast, 'error')
    mockServer({ 'GET /_api/auth/session': signedIn(), 'GET /_api/community/my-posts/analytics': { status: 500, body: { error: 'Boom', code: 'internal' } } })
    renderApp(<MyPostsPage />)
    expect(await screen.findByRole('heading', { name: 'Error Fetching Posts' })).toBeInTheDocument()
    expect(error).toHaveBeenCalledWith('Failed to fetch post analytics.', { id: 'Failed to fetch post analytics.' })
    error.mockRestore()
  })
})
