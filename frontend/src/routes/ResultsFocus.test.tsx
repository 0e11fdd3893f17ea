// Keyboard and focus on /results: the result's heading takes focus when it appears, and a
// dialog opened from the page gives focus back to its opener when Escape closes it.
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Route, Routes, type InitialEntry } from 'react-router-dom'
import { sampleResponse, sampleSaved } from '@/features/analysis/testFixtures'
import { mockServer, renderApp, signedIn, signedOut } from '@/test-utils'
import Results from './Results'

afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

const noTrending = { status: 200, body: { items: [] } }

function renderResults(route: InitialEntry) {
  renderApp(
    <Routes>
      <Route path="/" element={<h1>Home page</h1>} />
      <Route path="/results" element={<Results />} />
    </Routes>,
    { route },
  )
}

describe('/results focus', () => {
  it('moves focus to the score heading once the analysis comes back', async () => {
    mockServer({
      'GET /_api/auth/session': signedOut,
      'GET /_api/trending-gear': noTrending,
      'POST /_api/analyze-setup': { status: 200, body: sampleResponse() },
    })
    renderResults({ pathname: '/results', state: { type: 'text', value: 'Two monitors on arms, a white desk and an RGB strip.' } })
    const heading = await screen.findByRole('heading', { level: 1, name: 'Your SetupIQ Score' })
    await waitFor(() => expect(heading).toHaveFocus())
    // The heading is reachable by script, not a stop in the tab order.
    expect(heading).toHaveAttribute('tabindex', '-1')
  })

  it('moves focus to the score heading of a saved analysis too', async () => {
    mockServer({ 'GET /_api/auth/session': signedOut, 'GET /_api/trending-gear': noTrending })
    renderResults({ pathname: '/results', state: { savedAnalysis: sampleSaved(9, 5.5, '2026-03-01T10:00:00Z') } })
    const heading = await screen.findByRole('heading', { level: 1, name: 'Your SetupIQ Score' })
    await waitFor(() => expect(heading).toHaveFocus())
  })

  it('gives focus back to Export PDF when Escape closes the Pro dialog it opened', async () => {
    mockServer({ 'GET /_api/auth/session': signedIn({ isPro: false }), 'GET /_api/trending-gear': noTrending })
    renderResults({ pathname: '/results', state: { savedAnalysis: sampleSaved(7, 8.2, '2026-03-01T10:00:00Z') } })
    const exportButton = await screen.findByRole('button', { name: /Export PDF/ })
    await userEvent.click(exportButton)
    const dialog = await screen.findByRole('dialog', { name: 'Pro Feature' })
    await waitFor(() => expect(dialog).toContainElement(document.activeElement as HTMLElement))

    await userEvent.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Pro Feature' })).not.toBeInTheDocument())
    expect(exportButton).toHaveFocus()
  })
})
