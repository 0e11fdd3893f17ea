import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Route, Routes, type InitialEntry } from 'react-router-dom'
import { Toaster } from 'sonner'
import { useAuth } from '@/lib/auth'
import AuthDialog from '@/features/auth/components/AuthDialog'
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

/** `withAuthDialog`: the sign-up and sign-in dialog is there, as in the app (it hides the probe while open). */
function renderResults(route: InitialEntry, { withAuthDialog = false } = {}) {
  renderApp(
    <>
      <AuthProbe />
      {withAuthDialog && <AuthDialog />}
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

  it("asks before the toolbar's Share makes the result public, then passes its link on", async () => {
    const user = userEvent.setup()
    const { calls } = mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/trending-gear': trending,
      'GET /_api/my-analyses': { status: 200, body: { analyses: [] } },
      'POST /_api/analyses/7/share': { status: 200, body: { url: SHARE_URL, imageUrl: `${SHARE_URL}/card.png` } },
    })
    renderResults({ pathname: '/results', state: { savedAnalysis: sampleSaved(7, 8.2, '2026-03-01T10:00:00Z') } })
    await user.click(await screen.findByRole('button', { name: 'Share' }))
    let confirm = await screen.findByRole('dialog', { name: 'Make this result public?' })
    expect(confirm).toHaveAccessibleDescription(/^Sharing creates a public link to this result\. Anyone with the link sees the score/)
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }))
    expect(calls.some((c) => c.path === '/_api/analyses/7/share')).toBe(false)

    await user.click(screen.getByRole('button', { name: 'Share' }))
    confirm = await screen.findByRole('dialog', { name: 'Make this result public?' })
    await user.click(within(confirm).getByRole('button', { name: 'Create public link' }))
    expect(await screen.findByLabelText('Public link')).toHaveValue(SHARE_URL)
    expect(await navigator.clipboard.readText()).toBe(SHARE_URL)
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    // Shared already: Share passes the link on without asking again.
    await navigator.clipboard.writeText('')
    await user.click(screen.getByRole('button', { name: 'Share' }))
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(await navigator.clipboard.readText()).toBe(SHARE_URL)
    expect(calls.filter((c) => c.path === '/_api/analyses/7/share')).toHaveLength(1)
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

  describe("a visitor's free result, saved by signing up or in from its page", () => {
    const member = () => (signedIn().body as { user: Record<string, unknown> }).user
    const trial = { status: 200, body: sampleResponse({ analysisId: null, freeTrial: true }) }

    async function signUpFromThePanel(user: ReturnType<typeof userEvent.setup>) {
      const panel = await screen.findByTestId('share-panel')
      await user.click(within(panel).getByRole('button', { name: 'Sign up to share your result' }))
      const dialog = await screen.findByRole('dialog')
      await user.type(within(dialog).getByLabelText('Display Name'), 'Pixel Pete')
      await user.type(within(dialog).getByLabelText('Email'), 'pete@example.com')
      await user.type(within(dialog).getByLabelText('Password'), 'hunter2hunter2')
      await user.click(within(dialog).getByRole('button', { name: /Create Account/ }))
    }

    it('comes back to the saved result after sign-up, where Share makes its public link', async () => {
      const user = userEvent.setup()
      const { calls } = mockServer({
        'GET /_api/auth/session': signedOut,
        'GET /_api/trending-gear': trending,
        'GET /_api/my-analyses': { status: 200, body: { analyses: [], total: 0 } },
        'POST /_api/analyze-setup': trial,
        'POST /_api/auth/register_with_password': { status: 201, body: { user: member(), signupBonus: 3, claimedAnalysisId: 7 } },
        'GET /_api/analyses/7': { status: 200, body: sampleSaved(7, 7.3, '2026-03-01T10:00:00Z') },
        'POST /_api/analyses/7/share': { status: 200, body: { url: SHARE_URL, imageUrl: `${SHARE_URL}/card.png` } },
      })
      renderResults({ pathname: '/results', state: { type: 'text', value: 'Two monitors and a chair' } }, { withAuthDialog: true })
      await signUpFromThePanel(user)

      // The page is the saved analysis now: its panel shares it.
      await user.click(await screen.findByRole('button', { name: 'Share my result' }))
      expect(await screen.findByLabelText('Public link')).toHaveValue(SHARE_URL)
      expect(screen.queryByText(/This result was not saved to your account/)).not.toBeInTheDocument()
      expect(calls.some((c) => c.method === 'POST' && c.path === '/_api/analyze-setup')).toBe(true)
      expect(calls.filter((c) => c.method === 'POST' && c.path === '/_api/analyze-setup')).toHaveLength(1)
    })

    it('does the same after signing in', async () => {
      const user = userEvent.setup()
      mockServer({
        'GET /_api/auth/session': signedOut,
        'GET /_api/trending-gear': trending,
        'GET /_api/my-analyses': { status: 200, body: { analyses: [], total: 0 } },
        'POST /_api/analyze-setup': trial,
        'POST /_api/auth/login_with_password': { status: 200, body: { user: member(), claimedAnalysisId: 7 } },
        'GET /_api/analyses/7': { status: 200, body: sampleSaved(7, 7.3, '2026-03-01T10:00:00Z') },
      })
      renderResults({ pathname: '/results', state: { type: 'text', value: 'Two monitors and a chair' } }, { withAuthDialog: true })
      await screen.findByTestId('share-panel')
      await user.click(screen.getByRole('button', { name: 'Sign In' }))
      const dialog = await screen.findByRole('dialog')
      await user.type(within(dialog).getByLabelText('Email'), 'pete@example.com')
      await user.type(within(dialog).getByLabelText('Password'), 'hunter2hunter2')
      await user.click(within(dialog).getByRole('button', { name: 'Log In' }))
      expect(await screen.findByRole('button', { name: 'Share my result' })).toBeInTheDocument()
      expect(screen.getByRole('button', { name: 'Share to Community' })).toBeInTheDocument()
    })

    it('says the result was not saved when nothing was claimed (kept too long)', async () => {
      const user = userEvent.setup()
      const { calls } = mockServer({
        'GET /_api/auth/session': signedOut,
        'GET /_api/trending-gear': trending,
        'GET /_api/my-analyses': { status: 200, body: { analyses: [], total: 0 } },
        'POST /_api/analyze-setup': trial,
        'POST /_api/auth/register_with_password': { status: 201, body: { user: member(), signupBonus: 3 } },
      })
      renderResults({ pathname: '/results', state: { type: 'text', value: 'Two monitors and a chair' } }, { withAuthDialog: true })
      await signUpFromThePanel(user)
      expect(await screen.findByText(/This result was not saved to your account/)).toBeInTheDocument()
      expect(screen.queryByRole('button', { name: 'Share my result' })).not.toBeInTheDocument()
      expect(calls.some((c) => c.path.startsWith('/_api/analyses/'))).toBe(false)
    })
  })
})
