import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Route, Routes, type InitialEntry } from 'react-router-dom'
import { Toaster } from 'sonner'
import { useAuth } from '@/lib/auth'
import { sampleResponse, sampleSaved } from '@/features/analysis/testFixtures'
import { mockServer, renderApp, signedIn, signedOut } from '@/test-utils'
import Results from './Results'

afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

const trending = { status: 200, body: { items: [] } }
const SHARE_URL = `${window.location.origin}/share/tok_123`

function AuthProbe() {
  const { authDialog } = useAuth()
  return <output aria-label="Auth dialog">{authDialog.open ? authDialog.tab : 'closed'}</output>
}

function renderResults(route: InitialEntry) {
  renderApp(
    <>
      <AuthProbe />
      <Routes>
        <Route path="/results" element={<Results />} />
      </Routes>
      <Toaster />
    </>,
    { route },
  )
}

describe('sharing a result on /results', () => {
  it('creates the public link, shares that link, and stops sharing', async () => {
    const user = userEvent.setup()
    const { calls } = mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/trending-gear': trending,
      'GET /_api/my-analyses': { status: 200, body: { analyses: [] } },
      'POST /_api/analyses/7/share': { status: 200, body: { url: SHARE_URL, imageUrl: `${SHARE_URL}/card.png` } },
      'POST /_api/analyses/7/unshare': { status: 204, body: undefined },
    })
    renderResults({ pathname: '/results', state: { savedAnalysis: sampleSaved(7, 8.2, '2026-03-01T10:00:00Z') } })

    const panel = await screen.findByTestId('share-panel')
    expect(within(panel).queryByRole('textbox')).not.toBeInTheDocument()
    await user.click(within(panel).getByRole('button', { name: 'Share my result' }))

    const field = await within(panel).findByLabelText('Public link')
    expect(field).toHaveValue(SHARE_URL)
    expect(field).toHaveAttribute('readonly')
    expect(calls.find((c) => c.method === 'POST' && c.path === '/_api/analyses/7/share')?.body).toEqual({})

    // Every button shares the public link, never the home page.
    const tweet = within(panel).getByRole('link', { name: /Share on X/ })
    expect(tweet.getAttribute('href')).toContain(`url=${encodeURIComponent(SHARE_URL)}`)
    expect(tweet.getAttribute('href')).toMatch(/^https:\/\/twitter\.com\/intent\/tweet\?/)
    expect(new URL(tweet.getAttribute('href')!).searchParams.get('text')).toContain('8.2/10')
    expect(tweet).toHaveAttribute('target', '_blank')
    const card = within(panel).getByRole('img', { name: /Preview card/ })
    expect(card).toHaveAttribute('src', `${SHARE_URL}/card.png`)

    await user.click(within(panel).getByRole('button', { name: 'Copy for Discord' }))
    expect(await screen.findByText(/^Copied!/)).toBeInTheDocument()
    const copied = await navigator.clipboard.readText()
    expect(copied).toContain('8.2/10')
    expect(copied).toContain(SHARE_URL)

    await user.click(within(panel).getByRole('button', { name: 'Copy link' }))
    expect(await navigator.clipboard.readText()).toBe(SHARE_URL)

    // Stopping goes back to the start; the history is read again for My Setups.
    await user.click(within(panel).getByRole('button', { name: 'Stop sharing' }))
    expect(await within(panel).findByRole('button', { name: 'Share my result' })).toBeInTheDocument()
    expect(calls.some((c) => c.method === 'POST' && c.path === '/_api/analyses/7/unshare')).toBe(true)
    expect(within(panel).queryByLabelText('Public link')).not.toBeInTheDocument()
  })

  it('shows an analysis shared already with its link', async () => {
    mockServer({ 'GET /_api/auth/session': signedIn(), 'GET /_api/trending-gear': trending })
    const saved = { ...sampleSaved(7, 8.2, '2026-03-01T10:00:00Z'), sharePath: '/share/tok_123' }
    renderResults({ pathname: '/results', state: { savedAnalysis: saved } })
    expect(await screen.findByLabelText('Public link')).toHaveValue(SHARE_URL)
    expect(screen.getByRole('img', { name: /Preview card/ })).toHaveAttribute('src', `${SHARE_URL}/card.png`)
  })

  it('says when the server refuses', async () => {
    const user = userEvent.setup()
    mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/trending-gear': trending,
      'POST /_api/analyses/7/share': { status: 404, body: { error: 'Analysis not found.', code: 'not_found' } },
    })
    renderResults({ pathname: '/results', state: { savedAnalysis: sampleSaved(7, 8.2, '2026-03-01T10:00:00Z') } })
    await user.click(await screen.findByRole('button', { name: 'Share my result' }))
    expect(await screen.findByText('Analysis not found.')).toBeInTheDocument()
    // SWR ends a mutation in a transition: the button comes back a render after the toast.
    expect(await screen.findByRole('button', { name: 'Share my result' })).toBeEnabled()
  })

  it("asks a visitor with a trial result to sign up, and shares no home page", async () => {
    const user = userEvent.setup()
    mockServer({
      'GET /_api/auth/session': signedOut,
      'GET /_api/trending-gear': trending,
      'POST /_api/analyze-setup': { status: 200, body: sampleResponse({ analysisId: null, freeTrial: true }) },
    })
    renderResults({ pathname: '/results', state: { type: 'text', value: 'Two monitors and a chair' } })
    const panel = await screen.findByTestId('share-panel')
    expect(within(panel).getByRole('button', { name: 'Sign up to share your result' })).toBeInTheDocument()
    expect(within(panel).queryByRole('button', { name: 'Share my result' })).not.toBeInTheDocument()
    expect(screen.queryByRole('link', { name: /Share on X/ })).not.toBeInTheDocument()
    await user.click(within(panel).getByRole('button', { name: 'Sign up to share your result' }))
    expect(screen.getByRole('status', { name: 'Auth dialog' })).toHaveTextContent('register')
  })
})
