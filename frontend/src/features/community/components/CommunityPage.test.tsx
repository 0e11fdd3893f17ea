import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { toast } from '@/lib/toast'
import { mockServer, renderApp, signedIn, signedOut } from '@/test-utils'
import { sampleSetup, setupsPage } from '../testFixtures'
import { CommunityPage } from './CommunityPage'

afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe('CommunityPage', () => {
  it('asks visitors to log in to vote and disables upload', async () => {
    const server = mockServer({ 'GET /_api/auth/session': signedOut, 'GET /_api/community/setups': setupsPage([sampleSetup()]) })
    renderApp(<CommunityPage />)
    expect(await screen.findByRole('heading', { name: 'Neon Den' })).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: 'Community Setups' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Upload Your Setup' })).toBeDisabled()
    const up = screen.getAllByTitle('Login to vote')
    expect(up).toHaveLength(2)
    await userEvent.click(up[0]!)
    expect(server.calls.some((c) => c.path === '/_api/community/vote')).toBe(false)
    expect(screen.getByRole('link', { name: 'Gina' })).toHaveAttribute('href', '/user/2')
    expect(screen.getByText('PRO')).toBeInTheDocument()
  })

  it('votes optimistically and shows the server score', async () => {
    let resolveVote: (v: unknown) => void = () => undefined
    mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/community/setups': setupsPage([sampleSetup()]),
    })
    const fetchMock = globalThis.fetch as ReturnType<typeof vi.fn>
    const original = fetchMock.getMockImplementation()!
    fetchMock.mockImplementation(async (input: Request) => {
      if (input instanceof Request && new URL(input.url).pathname === '/_api/community/vote') {
        await new Promise((r) => (resolveVote = r))
        return new Response(JSON.stringify({ score: 6, userVote: 1 }), { status: 200, headers: { 'content-type': 'application/json' } })
      }
      return original(input)
    })
    renderApp(<CommunityPage />)
    await userEvent.click(await screen.findByRole('button', { name: 'Upvote' }))
    expect(screen.getByTestId('setup-score')).toHaveTextContent('6')
    resolveVote(null)
    await waitFor(() => expect(screen.getByRole('button', { name: 'Upvote' })).toHaveAttribute('aria-pressed', 'true'))
    expect(screen.getByTestId('setup-score')).toHaveTextContent('6')
  })

  it('rolls a vote back when the server refuses', async () => {
    const error = vi.spyOn(toast, 'error')
    mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/community/setups': setupsPage([sampleSetup({ score: 5, userVote: 1 })]),
      'POST /_api/community/vote': { status: 500, body: { error: 'Boom', code: 'internal' } },
    })
    renderApp(<CommunityPage />)
    await userEvent.click(await screen.findByRole('button', { name: 'Downvote' }))
    await waitFor(() => expect(error).toHaveBeenCalledWith('Failed to cast vote.', { description: 'Your vote could not be saved.' }))
    expect(screen.getByTestId('setup-score')).toHaveTextContent('5')
    expect(screen.getByRole('button', { name: 'Upvote' })).toHaveAttribute('aria-pressed', 'true')
  })

  it('says under the votes why an unverified member\'s vote did not count, until one does', async () => {
    const error = vi.spyOn(toast, 'error')
    let votes = 0
    mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/community/setups': setupsPage([sampleSetup({ score: 5, userVote: null })]),
      'POST /_api/community/vote': () =>
        ++votes === 1
          ? { status: 403, body: { error: 'Please verify your email address before voting.', code: 'forbidden' } }
          : { status: 200, body: { score: 6, userVote: 1 } },
    })
    renderApp(<CommunityPage />)
    const votesOf = () => screen.getByRole('group', { name: 'Votes' })
    await userEvent.click(await screen.findByRole('button', { name: 'Upvote' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Please verify your email address before voting.')
    expect(votesOf().parentElement).toContainElement(screen.getByRole('alert'))
    expect(screen.getByTestId('setup-score')).toHaveTextContent('5')
    expect(screen.getByRole('button', { name: 'Upvote' })).toHaveAttribute('aria-pressed', 'false')
    expect(error).not.toHaveBeenCalled()

    await userEvent.click(screen.getByRole('button', { name: 'Upvote' }))
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument())
    expect(screen.getByTestId('setup-score')).toHaveTextContent('6')
  })

  it('marks the week winners when sorted by top, only those with a vote in their favour', async () => {
    const scores = [5, 2, 0, 0]
    mockServer({
      'GET /_api/auth/session': signedOut,
      'GET /_api/community/setups': setupsPage(scores.map((score, i) => sampleSetup({ id: i + 1, title: `Setup ${i + 1}`, score }))),
    })
    renderApp(<CommunityPage />)
    await screen.findByRole('heading', { name: 'Setup 1' })
    expect(screen.queryByTestId('winner-mark')).not.toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'This Week' }))
    await waitFor(() => expect(screen.getAllByTestId('winner-mark')).toHaveLength(2))
    expect(screen.getAllByTestId('winner-mark')[0]).toHaveTextContent('#1 Top of The Week')
    expect(screen.queryByText('#3 Top of The Week')).not.toBeInTheDocument()
  })

  it('pages with Load more', async () => {
    const server = mockServer({
      'GET /_api/auth/session': signedOut,
      'GET /_api/community/setups': setupsPage([sampleSetup()], true),
    })
    renderApp(<CommunityPage />)
    await userEvent.click(await screen.findByRole('button', { name: 'Load more' }))
    const urls = () => (globalThis.fetch as ReturnType<typeof vi.fn>).mock.calls.map(([input]) => String(input instanceof Request ? input.url : input))
    await waitFor(() => expect(urls().some((url) => url.includes('/_api/community/setups') && url.includes('offset=20'))).toBe(true))
    expect(server.calls.filter((c) => c.path === '/_api/community/setups').length).toBeGreaterThanOrEqual(2)
  })

  it('shows the empty and error states', async () => {
    mockServer({ 'GET /_api/auth/session': signedOut, 'GET /_api/community/setups': setupsPage([]) })
    const { unmount } = renderApp(<CommunityPage />)
    expect(await screen.findByRole('heading', { name: 'No Setups Found' })).toBeInTheDocument()
    expect(screen.getByText('Be the first to share your setup with the community.')).toBeInTheDocument()
    unmount()
    // Someone who reported the only setup is not invited to be the first.
    const reported = setupsPage([])
    mockServer({ 'GET /_api/auth/session': signedOut, 'GET /_api/community/setups': { ...reported, body: { ...reported.body, reportedByYou: 1 } } })
    const second = renderApp(<CommunityPage />)
    expect(await screen.findByText('Setups you report are hidden from your feed, and there are no others here yet.')).toBeInTheDocument()
    expect(screen.queryByText(/Be the first/)).not.toBeInTheDocument()
    second.unmount()
    mockServer({ 'GET /_api/auth/session': signedOut, 'GET /_api/community/setups': { status: 500, body: { error: 'x' } } })
    renderApp(<CommunityPage />)
    const alert = await screen.findByRole('alert', {}, { timeout: 15000 })
    expect(alert).toHaveTextContent('Oops! Something went wrong.Could not load community setups. Please try again later.')
  }, 20000)

  it('shows the leaderboard and its empty state', async () => {
    mockServer({
      'GET /_api/auth/session': signedOut,
      'GET /_api/community/setups': setupsPage([]),
      'GET /_api/community/leaderboard': (() => {
        let n = 0
        return () => (n++ === 0
          ? { status: 200, body: [{ userId: 2, username: 'Gamer_Gina', displayName: 'Gina', isPro: true, totalScore: 12, setupCount: 2, topSetupImageUrl: '/media/a.jpg', topSetupScore: 9 }] }
          : { status: 200, body: [] })
      })(),
    })
    renderApp(<CommunityPage />)
    await userEvent.click(screen.getByRole('tab', { name: 'Leaderboard' }))
    const board = await screen.findByTestId('leaderboard')
    expect(within(board).getByText('#1')).toBeInTheDocument()
    // The member's name, as on their posts and profile, and what the best setup's number is.
    expect(within(board).getByRole('link', { name: 'Gina' })).toHaveAttribute('href', '/user/2')
    expect(within(board).getByText('12 points · 2 setups')).toBeInTheDocument()
    expect(within(board).getByText('Best setup: 9 points')).toBeInTheDocument()
    expect(within(board).queryByText(/Top:/)).not.toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'This Month' }))
    expect(await screen.findByText('No top users found for this period. Be the first!')).toBeInTheDocument()
  })
})
