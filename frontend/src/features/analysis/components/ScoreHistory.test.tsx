import { screen, waitFor } from '@testing-library/react'
import { mockServer, renderApp, signedIn } from '@/test-utils'
import { sampleSaved } from '../testFixtures'
import { ScoreHistory } from './ScoreHistory'

afterEach(() => vi.unstubAllGlobals())

describe('the profile score history', () => {
  it('sums up the scores and draws them once the chart has loaded', async () => {
    mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/my-analyses': {
        status: 200,
        body: { analyses: [sampleSaved(3, 7.1, '2026-03-03T10:00:00Z'), sampleSaved(2, 8.4, '2026-03-02T10:00:00Z'), sampleSaved(1, 6, '2026-03-01T10:00:00Z')] },
      },
    })
    renderApp(<ScoreHistory />)
    expect(await screen.findByRole('heading', { name: 'Score History' })).toBeInTheDocument()
    const chart = await screen.findByTestId('score-history-chart')
    expect(chart).toHaveTextContent('3 analyses, best 8.4, latest 7.1')
    // Oldest first in the table that carries every value.
    const cells = screen.getAllByRole('cell').map((cell) => cell.textContent)
    expect(cells).toEqual(['Mar 1, 2026', '6.0/10', 'Mar 2, 2026', '8.4/10', 'Mar 3, 2026', '7.1/10'])
  })

  it('draws a re-rated setup as one line and says so', async () => {
    mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/my-analyses': {
        status: 200,
        body: {
          analyses: [
            { ...sampleSaved(3, 7.8, '2026-03-03T10:00:00Z'), previousAnalysisId: 1 },
            sampleSaved(2, 6.1, '2026-03-02T10:00:00Z'),
            sampleSaved(1, 5.2, '2026-03-01T10:00:00Z'),
          ],
        },
      },
    })
    const { container } = renderApp(<ScoreHistory />)
    const chart = await screen.findByTestId('score-history-chart')
    expect(chart).toHaveTextContent('3 analyses, best 7.8, latest 7.8; one setup re-rated, each a line')
    // The chain's line (two points) and the other analysis as a point of its own.
    await waitFor(() => expect(container.querySelectorAll('.recharts-line').length).toBe(1))
  })

  it('shows nothing without analyses', async () => {
    const { calls } = mockServer({ 'GET /_api/auth/session': signedIn(), 'GET /_api/my-analyses': { status: 200, body: { analyses: [] } } })
    const { container } = renderApp(<ScoreHistory />)
    await waitFor(() => expect(calls.some((c) => c.path === '/_api/my-analyses')).toBe(true))
    await new Promise((r) => setTimeout(r, 20))
    expect(container).toBeEmptyDOMElement()
  })
})
