import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Route, Routes, useLocation } from 'react-router-dom'
import { toast } from '@/lib/toast'
import { useAuth } from '@/lib/auth'
import { mockServer, renderApp, signedIn, signedOut } from '@/test-utils'
import { sampleSaved } from '../testFixtures'
import { shouldRetry } from '@/api/resources'
import { ApiError } from '@/api/client'
import { MySetupsGrid, SetupHistory } from './HistoryGrids'

afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

function ResultsProbe() {
  const location = useLocation()
  const state = location.state as { savedAnalysis?: { id: number }; type?: string; value?: string }
  return <p data-testid="results">{`${state.type} ${state.value} ${state.savedAnalysis?.id}`}</p>
}

function AuthProbe() {
  const { authDialog } = useAuth()
  return <output aria-label="Auth dialog">{authDialog.open ? authDialog.tab : 'closed'}</output>
}

function renderAt(ui: React.ReactElement) {
  renderApp(
    <>
      <AuthProbe />
      <Routes>
        <Route path="/" element={ui} />
        <Route path="/results" element={<ResultsProbe />} />
      </Routes>
    </>,
  )
}

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString()

describe('My Setups', () => {
  it('lists saved analyses newest first and opens their details', async () => {
    mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/my-analyses': { status: 200, body: { analyses: [sampleSaved(2, 8, minutesAgo(5)), sampleSaved(1, 6.45, minutesAgo(3 * 24 * 60))], total: 2 } },
    })
    renderAt(<MySetupsGrid />)
    const cards = await screen.findAllByTestId('setup-card')
    expect(cards).toHaveLength(2)
    expect(cards[0]).toHaveTextContent('8.0/10')
    expect(cards[0]).toHaveTextContent('5 minutes ago')
    expect(cards[1]).toHaveTextContent('6.5/10')
    expect(cards[1]).toHaveTextContent('3 days ago')
    await userEvent.click(screen.getAllByRole('button', { name: /View Details/ })[1]!)
    expect(await screen.findByTestId('results')).toHaveTextContent('image /media/analyses/1.jpg 1')
  })

  it('offers to re-rate each setup, opening the analyze form linked to it', async () => {
    mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/my-analyses': { status: 200, body: { analyses: [sampleSaved(2, 8, minutesAgo(5)), sampleSaved(1, 6, minutesAgo(60))], total: 2 } },
    })
    renderAt(<MySetupsGrid />)
    const links = await screen.findAllByRole('link', { name: /^Re-rate this setup/ })
    expect(links.map((link) => link.getAttribute('href'))).toEqual(['/?rerate=2', '/?rerate=1'])
  })

  it('marks shared analyses with a badge that links to their public page', async () => {
    const shared = { ...sampleSaved(2, 8, minutesAgo(5)), sharePath: '/share/tok_abc' }
    mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/my-analyses': { status: 200, body: { analyses: [shared, sampleSaved(1, 6.45, minutesAgo(60))], total: 2 } },
    })
    renderAt(<MySetupsGrid />)
    const cards = await screen.findAllByTestId('setup-card')
    const badges = screen.getAllByTestId('shared-badge')
    expect(badges).toHaveLength(1)
    expect(cards[0]).toContainElement(badges[0]!)
    expect(badges[0]).toHaveAttribute('href', '/share/tok_abc')
    expect(badges[0]).toHaveAccessibleName('Shared: open the public page of this result')
  })

  it('shows six skeletons while loading', async () => {
    mockServer({ 'GET /_api/auth/session': signedIn(), 'GET /_api/my-analyses': () => new Promise(() => undefined) as never })
    renderAt(<MySetupsGrid />)
    await waitFor(() => expect(screen.getByTestId('history-skeletons').querySelectorAll('.history-skeleton')).toHaveLength(6))
  })

  it('asks visitors to log in or sign up', async () => {
    mockServer({ 'GET /_api/auth/session': signedOut })
    renderAt(<MySetupsGrid />)
    await userEvent.click(await screen.findByRole('button', { name: 'Sign Up' }))
    expect(screen.getByLabelText('Auth dialog')).toHaveTextContent('register')
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }))
    expect(screen.getByLabelText('Auth dialog')).toHaveTextContent('login')
  })

  it('invites a first analysis when there is none', async () => {
    mockServer({ 'GET /_api/auth/session': signedIn(), 'GET /_api/my-analyses': { status: 200, body: { analyses: [], total: 0 } } })
    renderAt(<MySetupsGrid />)
    expect(await screen.findByRole('link', { name: 'Analyze Your First Setup' })).toHaveAttribute('href', '/')
  })

  it('reports a failed fetch', async () => {
    mockServer({ 'GET /_api/auth/session': signedIn(), 'GET /_api/my-analyses': { status: 500, body: { error: 'Something broke.', code: 'internal' } } })
    renderApp(<MySetupsGrid />)
    expect(await screen.findByRole('heading', { name: 'Error Fetching Analyses' }, { timeout: 20_000 })).toBeInTheDocument()
  }, 30_000)

  it('retries up to 3 times, never after a 401', () => {
    expect(shouldRetry(new ApiError(401, 'Unauthorized'), 0)).toBe(false)
    expect(shouldRetry(new ApiError(500, 'x'), 0)).toBe(true)
    expect(shouldRetry(new ApiError(500, 'x'), 2)).toBe(true)
    expect(shouldRetry(new ApiError(500, 'x'), 3)).toBe(false)
  })
})

describe('deleting an analysis from My Setups', () => {
  /** My Setups as the page shows it: its heading, then the grid. */
  function MySetupsPage({ onDeleted }: { onDeleted?: () => void }) {
    return (
      <>
        <h1 id="my-setups-heading" tabIndex={-1}>My Setups</h1>
        <MySetupsGrid onDeleted={onDeleted} focusAfterDelete={() => document.getElementById('my-setups-heading')} />
      </>
    )
  }

  /** Two saved analyses until the server deleted one. */
  function historyServer(deleteReply: { status: number; body: unknown }) {
    let analyses = [sampleSaved(2, 8, minutesAgo(5)), sampleSaved(1, 6.45, minutesAgo(60))]
    return mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/my-analyses': () => ({ status: 200, body: { analyses, total: analyses.length } }),
      'POST /_api/analyses/2/delete': () => {
        if (deleteReply.status === 204) analyses = analyses.filter((a) => a.id !== 2)
        return deleteReply
      },
    })
  }

  it('confirms, deletes, drops the card and moves focus to the heading', async () => {
    const success = vi.spyOn(toast, 'success')
    const onDeleted = vi.fn()
    const server = historyServer({ status: 204, body: undefined })
    renderAt(<MySetupsPage onDeleted={onDeleted} />)
    const cards = await screen.findAllByTestId('setup-card')
    expect(cards).toHaveLength(2)

    // Cancel sends nothing and gives focus back to the card's Delete button.
    const opener = within(cards[0]!).getByRole('button', { name: 'Delete analysis' })
    await userEvent.click(opener)
    let dialog = await screen.findByRole('dialog', { name: 'Delete Analysis' })
    expect(dialog).toHaveAccessibleDescription(
      'Are you sure you want to delete this analysis? This action cannot be undone. Its photo, its share link and any community post made from it are deleted too.',
    )
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    await waitFor(() => expect(opener).toHaveFocus())
    expect(server.calls.some((c) => c.path.endsWith('/delete'))).toBe(false)

    // Escape cancels too.
    await userEvent.click(opener)
    await screen.findByRole('dialog', { name: 'Delete Analysis' })
    await userEvent.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    await waitFor(() => expect(opener).toHaveFocus())

    await userEvent.click(opener)
    dialog = await screen.findByRole('dialog', { name: 'Delete Analysis' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(success).toHaveBeenCalledWith('Analysis deleted.'))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    await waitFor(() => expect(screen.getAllByTestId('setup-card')).toHaveLength(1))
    expect(screen.getByTestId('setup-card')).toHaveTextContent('6.5/10')
    await waitFor(() => expect(screen.getByRole('heading', { name: 'My Setups' })).toHaveFocus())
    expect(server.calls.find((c) => c.method === 'POST' && c.path === '/_api/analyses/2/delete')?.body).toEqual({})
    expect(onDeleted).toHaveBeenCalledTimes(1)
    // The history was read again from the server.
    expect(server.calls.filter((c) => c.path === '/_api/my-analyses').length).toBeGreaterThan(1)
  })

  it("keeps the card and says the server's reason when it refuses", async () => {
    const error = vi.spyOn(toast, 'error')
    historyServer({ status: 404, body: { error: 'Analysis not found.', code: 'not_found' } })
    renderAt(<MySetupsPage />)
    const cards = await screen.findAllByTestId('setup-card')
    await userEvent.click(within(cards[0]!).getByRole('button', { name: 'Delete analysis' }))
    const dialog = await screen.findByRole('dialog', { name: 'Delete Analysis' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(error).toHaveBeenCalledWith('Analysis not found.'))
    // The dialog stays open to try again or cancel (SWR ends a mutation in a transition: the
    // button comes back a render after the toast); the card stays.
    expect(await within(dialog).findByRole('button', { name: 'Delete' })).toBeEnabled()
    expect(screen.getAllByTestId('setup-card')).toHaveLength(2)
  })

  it('says "Failed to delete analysis." when the server sent no reason', async () => {
    const error = vi.spyOn(toast, 'error')
    historyServer({ status: 500, body: {} })
    renderAt(<MySetupsPage />)
    const cards = await screen.findAllByTestId('setup-card')
    await userEvent.click(within(cards[0]!).getByRole('button', { name: 'Delete analysis' }))
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Delete Analysis' })).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(error).toHaveBeenCalledWith('Failed to delete analysis.'))
  })
})

describe('Setup History on the profile', () => {
  it('badges scores low, medium and high', async () => {
    mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/my-analyses': {
        status: 200,
        body: { analyses: [sampleSaved(3, 7, '2026-03-03T10:00:00Z'), sampleSaved(2, 6.9, '2026-03-02T10:00:00Z'), sampleSaved(1, 4.9, '2026-03-01T10:00:00Z')], total: 3 },
      },
    })
    renderAt(<SetupHistory />)
    expect(await screen.findByText('7.0/10')).toHaveClass('history-high')
    expect(screen.getByText('6.9/10')).toHaveClass('history-medium')
    expect(screen.getByText('4.9/10')).toHaveClass('history-low')
    expect(screen.getByText('Mar 1, 2026')).toBeInTheDocument()
    await userEvent.click(screen.getAllByRole('button', { name: /^View/ })[0]!)
    expect(await screen.findByTestId('results')).toHaveTextContent('image /media/analyses/3.jpg 3')
  })

  it('has an empty state linking home', async () => {
    mockServer({ 'GET /_api/auth/session': signedIn(), 'GET /_api/my-analyses': { status: 200, body: { analyses: [], total: 0 } } })
    renderAt(<SetupHistory />)
    expect(await screen.findByRole('heading', { name: 'No Analyses Yet' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Analyze a Setup' })).toHaveAttribute('href', '/')
  })
})
