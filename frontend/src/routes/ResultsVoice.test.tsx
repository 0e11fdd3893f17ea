import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Route, Routes, type InitialEntry } from 'react-router-dom'
import { Toaster } from 'sonner'
import { sampleResponse, sampleSaved } from '@/features/analysis/testFixtures'
import { mockServer, renderApp, signedIn, signedOut } from '@/test-utils'
import Results from './Results'

beforeEach(() => localStorage.clear())
afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

const trending = { status: 200, body: { items: [] } }
const SHARE_URL = `${window.location.origin}/share/tok_123`
const trial = { type: 'text', value: 'Two monitors, a gaming chair and purple RGB everywhere.' }

function renderResults(route: InitialEntry) {
  return renderApp(
    <>
      <Routes>
        <Route path="/results" element={<Results />} />
      </Routes>
      <Toaster />
    </>,
    { route },
  )
}

/** Each category card's comment, by category. */
function comments(): Record<string, string | undefined> {
  return Object.fromEntries(
    screen.getAllByTestId('category-card').map((card) => [within(card).getByRole('heading', { level: 3 }).textContent, card.querySelector('p.muted')?.textContent]),
  )
}

/** What stays the same in every voice: the overall score and each card's score and percentile. */
function scores() {
  return {
    overall: screen.getByTestId('overall-score').textContent,
    cards: screen.getAllByTestId('category-card').map((card) => [card.querySelector('.category-score')?.textContent, card.querySelector('p.hint')?.textContent]),
  }
}

describe('voices on /results', () => {
  it("tells a visitor's trial result Honest, Roast or Coach with the same scores", async () => {
    const user = userEvent.setup()
    mockServer({
      'GET /_api/auth/session': signedOut,
      'GET /_api/trending-gear': trending,
      'POST /_api/analyze-setup': { status: 200, body: sampleResponse({ analysisId: null, freeTrial: true }) },
    })
    renderResults({ pathname: '/results', state: trial })

    const group = await screen.findByRole('radiogroup', { name: 'Voice' })
    expect(within(group).getAllByRole('radio').map((r) => r.closest('label')?.textContent)).toEqual(['Honest', 'Roast', 'Coach'])
    expect(within(group).getByRole('radio', { name: 'Honest' })).toBeChecked()
    expect(screen.getByTestId('summary')).toHaveTextContent('A clean dual-monitor battlestation with strong RGB.')
    expect(comments()['Cable Management']).toBe('Cables hang behind the desk')
    const before = scores()

    await user.click(within(group).getByRole('radio', { name: 'Roast' }))
    expect(within(group).getByRole('radio', { name: 'Roast' })).toBeChecked()
    expect(screen.getByTestId('summary')).toHaveTextContent('Respectable, but the cable management is holding the squad back.')
    expect(comments()['Cable Management']).toBe('Cables hang behind the desk. Spaghetti night, every night.')
    expect(comments()['Chair & Comfort']).toBe('A gaming chair with armrests. Your back sends its regards.')
    expect(scores()).toEqual(before)

    // Arrow keys move through the voices.
    await user.keyboard('{ArrowRight}')
    expect(within(group).getByRole('radio', { name: 'Coach' })).toBeChecked()
    expect(within(group).getByRole('radio', { name: 'Coach' })).toHaveFocus()
    expect(screen.getByTestId('summary')).toHaveTextContent('Start with the cable management: one tray lifts the whole score.')
    expect(comments()['Monitor Setup']).toBe('Two monitors at the same height. Next step: a monitor arm frees the desk.')
    expect(scores()).toEqual(before)

    await user.click(within(group).getByRole('radio', { name: 'Honest' }))
    expect(screen.getByTestId('summary')).toHaveTextContent('A clean dual-monitor battlestation with strong RGB.')
    expect(comments()['Monitor Setup']).toBe('Two monitors at the same height')
  })

  it('remembers the last voice for the next result', async () => {
    const user = userEvent.setup()
    mockServer({ 'GET /_api/auth/session': signedIn(), 'GET /_api/trending-gear': trending })
    const saved = sampleSaved(7, 8.2, '2026-03-01T10:00:00Z')
    const first = renderResults({ pathname: '/results', state: { savedAnalysis: saved } })
    await user.click(await screen.findByRole('radio', { name: 'Coach' }))
    expect(localStorage.getItem('setupiq.voice')).toBe('coach')
    first.unmount()

    renderResults({ pathname: '/results', state: { savedAnalysis: saved } })
    expect(await screen.findByRole('radio', { name: 'Coach' })).toBeChecked()
    expect(screen.getByTestId('summary')).toHaveTextContent('Start with the cable management: one tray lifts the whole score.')
  })

  it('shares the link, the card and the texts in the chosen voice', async () => {
    const user = userEvent.setup()
    localStorage.setItem('setupiq.voice', 'roast')
    mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/trending-gear': trending,
      'GET /_api/my-analyses': { status: 200, body: { analyses: [], total: 0 } },
      'POST /_api/analyses/7/share': { status: 200, body: { url: SHARE_URL, imageUrl: `${SHARE_URL}/card.png` } },
    })
    renderResults({ pathname: '/results', state: { savedAnalysis: sampleSaved(7, 8.2, '2026-03-01T10:00:00Z') } })

    const panel = await screen.findByTestId('share-panel')
    await user.click(within(panel).getByRole('button', { name: 'Share my result' }))
    const field = await within(panel).findByLabelText('Public link')
    expect(field).toHaveValue(`${SHARE_URL}?voice=roast`)
    expect(within(panel).getByRole('img', { name: /Preview card/ })).toHaveAttribute('src', `${SHARE_URL}/card.png?voice=roast`)
    const tweet = within(panel).getByRole('link', { name: /Share on X/ })
    expect(new URL(tweet.getAttribute('href')!).searchParams.get('url')).toBe(`${SHARE_URL}?voice=roast`)
    await user.click(within(panel).getByRole('button', { name: 'Copy for TikTok' }))
    expect(await navigator.clipboard.readText()).toContain(`${SHARE_URL}?voice=roast`)

    // Another voice, other links; Honest is the plain link.
    await user.click(screen.getByRole('radio', { name: 'Coach' }))
    expect(field).toHaveValue(`${SHARE_URL}?voice=coach`)
    expect(within(panel).getByRole('img', { name: /Preview card/ })).toHaveAttribute('src', `${SHARE_URL}/card.png?voice=coach`)
    await user.click(within(panel).getByRole('button', { name: 'Copy link' }))
    expect(await navigator.clipboard.readText()).toBe(`${SHARE_URL}?voice=coach`)
    await user.click(screen.getByRole('radio', { name: 'Honest' }))
    expect(field).toHaveValue(SHARE_URL)
    expect(within(panel).getByRole('img', { name: /Preview card/ })).toHaveAttribute('src', `${SHARE_URL}/card.png`)
  })
})
