import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Route, Routes, type InitialEntry } from 'react-router-dom'
import { Toaster } from 'sonner'
import { sampleResponse, sampleSaved } from '@/features/analysis/testFixtures'
import { mockServer, renderApp, signedIn, signedOut } from '@/test-utils'
import Results from './Results'

afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

const trending = {
  status: 200,
  body: {
    items: [
      { productId: 1, name: 'Glide Mouse', category: 'Mouse', tier: 'balanced', priceCents: 5999, link: 'https://shop.example.com/1', justification: 'Light.', rating: 4.7 },
      { productId: 2, name: 'Halo Light Bar', category: 'Lighting', tier: 'budget', priceCents: 3999, link: 'https://shop.example.com/2', justification: 'Bright.', rating: 4.5 },
      { productId: 3, name: 'Aero Chair', category: 'Chair', tier: 'premium', priceCents: 139500, link: 'https://shop.example.com/3', justification: 'Comfy.', rating: 4.9 },
    ],
  },
}

const request = { type: 'image', value: 'data:image/jpeg;base64,AAAA', fileName: 'desk.jpg', description: 'My desk' }

function renderResults(route: InitialEntry) {
  renderApp(
    <>
      <Routes>
        <Route path="/" element={<h1>Home page</h1>} />
        <Route path="/results" element={<Results />} />
      </Routes>
      <Toaster />
    </>,
    { route },
  )
}

describe('/results', () => {
  it('goes home without navigation state', async () => {
    mockServer({ 'GET /_api/auth/session': signedOut })
    renderResults('/results')
    expect(await screen.findByRole('heading', { name: 'Home page' })).toBeInTheDocument()
  })

  it('analyzes the photo and shows the whole result', async () => {
    let answer: (() => void) | null = null
    const { calls } = mockServer({
      'GET /_api/auth/session': signedIn({ credits: 3 }),
      'GET /_api/trending-gear': trending,
      'POST /_api/track-click': { status: 200, body: { success: true } },
    })
    // Hold the analysis back to see the loading screen first.
    const fetchMock = globalThis.fetch as unknown as ReturnType<typeof vi.fn>
    const original = fetchMock.getMockImplementation()!
    fetchMock.mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost')
      if (url.pathname === '/_api/analyze-setup') {
        await new Promise<void>((resolve) => (answer = resolve))
        await original(input, init)
        return new Response(JSON.stringify(sampleResponse()), { status: 200, headers: { 'content-type': 'application/json' } })
      }
      return original(input, init)
    })
    renderResults({ pathname: '/results', state: request })

    expect(await screen.findByRole('heading', { name: 'Analyzing your setup...' })).toBeInTheDocument()
    expect(screen.getByRole('progressbar', { name: 'Analysis progress' })).toBeInTheDocument()
    await waitFor(() => expect(answer).not.toBeNull())
    answer!()

    expect(await screen.findByText('Your setup analysis is complete!')).toBeInTheDocument()
    expect(calls.find((c) => c.path === '/_api/analyze-setup')?.body).toEqual({ type: 'image', value: 'data:image/jpeg;base64,AAAA', description: 'My desk' })
    expect(screen.getByTestId('overall-score')).toHaveTextContent('7.3')
    const badge = screen.getByTestId('score-badge')
    expect(badge).toHaveClass('score-warning')
    expect(within(badge).getByText('Impressive')).toBeInTheDocument()
    expect(within(badge).getByText('Top 30% of setups')).toBeInTheDocument()
    expect(within(badge).getByText('😎')).toBeInTheDocument()
    expect(screen.getByTestId('setup-category')).toHaveTextContent('RGB Gaming Battlestation')
    expect(screen.getByTestId('analyzer')).toHaveTextContent('Rated by the built-in analyzer')
    expect(screen.getAllByTestId('category-card')).toHaveLength(6)
    expect(screen.getByText('4/10')).toHaveClass('category-ok')
    expect(screen.getByText('9/10')).toHaveClass('category-great')
    expect(screen.getByText('under the desk, left side')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Analyze Another Setup' })).toHaveAttribute('href', '/')
    expect(screen.queryByRole('button', { name: 'Sign In' })).not.toBeInTheDocument()

    // The other tiers open and close.
    const more = screen.getByRole('button', { name: 'See More Options' })
    expect(more).toHaveAttribute('aria-expanded', 'false')
    expect(screen.queryByText('Under-Desk Raceway Kit')).not.toBeVisible()
    await userEvent.click(more)
    expect(screen.getByRole('button', { name: 'Show Less Options' })).toHaveAttribute('aria-expanded', 'true')
    expect(screen.getByText('Under-Desk Raceway Kit')).toBeVisible()
    expect(screen.getByText('$129.99')).toBeVisible()
    await userEvent.click(screen.getByRole('button', { name: 'Show Less Options' }))
    expect(screen.getByRole('button', { name: 'See More Options' })).toBeInTheDocument()

    // Trending gear and click tracking.
    expect(await screen.findByText('Aero Chair')).toBeInTheDocument()
    expect(screen.getByText('$1,395.00')).toBeInTheDocument()
    const link = screen.getAllByRole('link', { name: /View Product: Cable Tray Basic/ })[0]!
    expect(link).toHaveAttribute('href', 'https://shop.example.com/p/11')
    await userEvent.click(link)
    await waitFor(() => expect(calls.some((c) => c.path === '/_api/track-click')).toBe(true))
    const click = calls.find((c) => c.path === '/_api/track-click')!.body as Record<string, unknown>
    expect(click).toMatchObject({ productId: 11, suggestionContext: 'Tame your cables', analysisId: 42 })
    expect(typeof click.sessionId).toBe('string')
  })

  it('exports PDFs for Pro members only', async () => {
    mockServer({ 'GET /_api/auth/session': signedIn({ isPro: false }), 'GET /_api/trending-gear': trending })
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined)
    const open = vi.spyOn(window, 'open').mockImplementation(() => null)
    renderResults({ pathname: '/results', state: { ...request, savedAnalysis: sampleSaved(7, 8.2, '2026-03-01T10:00:00Z') } })
    await userEvent.click(await screen.findByRole('button', { name: /Export PDF/ }))
    const dialog = await screen.findByRole('dialog', { name: 'Pro Feature' })
    expect(within(dialog).getByText('PDF export is available for Pro users only.')).toBeInTheDocument()
    expect(within(dialog).getByRole('link', { name: 'Upgrade to Pro' })).toHaveAttribute('href', '/#pricing')
    expect(alert).not.toHaveBeenCalled()
    expect(open).not.toHaveBeenCalled()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Maybe Later' }))
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Pro Feature' })).not.toBeInTheDocument())
  })

  it('says so in a toast when the print window is blocked', async () => {
    mockServer({ 'GET /_api/auth/session': signedIn({ isPro: true }), 'GET /_api/trending-gear': trending })
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined)
    vi.spyOn(window, 'open').mockImplementation(() => null)
    renderResults({ pathname: '/results', state: { savedAnalysis: sampleSaved(7, 8.2, '2026-03-01T10:00:00Z') } })
    await userEvent.click(await screen.findByRole('button', { name: 'Export PDF' }))
    expect(await screen.findByText('Could not open print window. Please check your browser settings.')).toBeInTheDocument()
    expect(alert).not.toHaveBeenCalled()
  })

  it('says so in a toast when the report cannot be written', async () => {
    mockServer({ 'GET /_api/auth/session': signedIn({ isPro: true }), 'GET /_api/trending-gear': trending })
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined)
    vi.spyOn(window, 'open').mockImplementation(() => {
      throw new Error('blocked by policy')
    })
    renderResults({ pathname: '/results', state: { savedAnalysis: sampleSaved(7, 8.2, '2026-03-01T10:00:00Z') } })
    await userEvent.click(await screen.findByRole('button', { name: 'Export PDF' }))
    expect(await screen.findByText('An error occurred while exporting to PDF.')).toBeInTheDocument()
    expect(alert).not.toHaveBeenCalled()
  })

  it('names the page in the document title', async () => {
    mockServer({ 'GET /_api/auth/session': signedOut, 'GET /_api/trending-gear': trending })
    renderResults({ pathname: '/results', state: { savedAnalysis: sampleSaved(7, 8.2, '2026-03-01T10:00:00Z') } })
    await screen.findByTestId('overall-score')
    expect(document.title).toBe('Results · SetupIQ')
  })

  it('opens a print window for Pro members', async () => {
    mockServer({ 'GET /_api/auth/session': signedIn({ isPro: true }), 'GET /_api/trending-gear': trending })
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined)
    const write = vi.fn()
    const print = vi.fn()
    const open = vi.spyOn(window, 'open').mockImplementation(
      () => ({ document: { open: vi.fn(), write, close: vi.fn() }, focus: vi.fn(), print }) as unknown as Window,
    )
    renderResults({ pathname: '/results', state: { savedAnalysis: sampleSaved(7, 8.2, '2026-03-01T10:00:00Z') } })
    await screen.findByTestId('overall-score')
    await userEvent.click(screen.getByRole('button', { name: 'Export PDF' }))
    expect(open).toHaveBeenCalled()
    expect(alert).not.toHaveBeenCalled()
    expect(write.mock.calls[0]![0]).toContain('8.2/10')
    await waitFor(() => expect(print).toHaveBeenCalled(), { timeout: 2000 })
  })

  it('shows a saved analysis without analysing again', async () => {
    const { calls } = mockServer({ 'GET /_api/auth/session': signedOut, 'GET /_api/trending-gear': trending })
    renderResults({ pathname: '/results', state: { savedAnalysis: sampleSaved(9, 5.5, '2026-03-01T10:00:00Z') } })
    expect(await screen.findByTestId('overall-score')).toHaveTextContent('5.5')
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeInTheDocument()
    expect(calls.some((c) => c.path === '/_api/analyze-setup')).toBe(false)
  })

  it('lets a member share a saved analysis to the community', async () => {
    const { calls } = mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/trending-gear': trending,
      'GET /_api/my-analyses': { status: 200, body: { analyses: [sampleSaved(9, 5.5, '2026-03-02T10:00:00Z'), sampleSaved(7, 8.2, '2026-03-01T10:00:00Z')] } },
    })
    renderResults({ pathname: '/results', state: { savedAnalysis: sampleSaved(7, 8.2, '2026-03-01T10:00:00Z') } })
    await userEvent.click(await screen.findByRole('button', { name: 'Share to Community' }))
    const dialog = await screen.findByRole('dialog', { name: 'Publish Setup to Community' })
    const selected = await within(dialog).findByTestId('selected-analysis')
    expect(selected).toHaveTextContent('8.2/10')
    expect(within(dialog).getByText('Extra photos (your analysed photo comes first) (0/4)')).toBeInTheDocument()
    expect(calls.some((c) => c.path === '/_api/my-analyses')).toBe(true)

    // 'Change' goes back to the list.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Change' }))
    expect(within(dialog).queryByTestId('selected-analysis')).not.toBeInTheDocument()
    expect(within(dialog).getAllByRole('button', { name: /Choose analysis/ })).toHaveLength(2)
  })

  it('offers visitors no community sharing', async () => {
    mockServer({ 'GET /_api/auth/session': signedOut, 'GET /_api/trending-gear': trending })
    renderResults({ pathname: '/results', state: { savedAnalysis: sampleSaved(7, 8.2, '2026-03-01T10:00:00Z') } })
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Share to Community' })).not.toBeInTheDocument()
  })

  it('shows the error screen and retries after a server failure', async () => {
    let tries = 0
    mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/trending-gear': trending,
      'POST /_api/analyze-setup': () =>
        ++tries === 1
          ? { status: 500, body: { error: 'Something went wrong on our side.', code: 'internal' } }
          : { status: 200, body: sampleResponse() },
    })
    renderResults({ pathname: '/results', state: request })
    expect(await screen.findByRole('heading', { name: 'Analysis Failed' })).toBeInTheDocument()
    expect(screen.getByTestId('analysis-error')).toHaveTextContent('Something went wrong on our side.')
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Choose another photo' })).not.toBeInTheDocument()
    expect(screen.queryByText(/You weren't charged/)).not.toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Retry Analysis' }))
    expect(await screen.findByTestId('overall-score')).toHaveTextContent('7.3')
    expect(tries).toBe(2)
  })

  it.each([
    "This photo doesn't look like a desk or gaming setup. Please upload a photo of your desk with its screen in view.",
    'This looks like a screenshot or an illustration, not a photo of a real setup. Please upload a photo of your desk.',
    "This image can't be analyzed: it appears to contain content that isn't safe for work.",
  ])('asks for another photo, with tips, when the server refuses one: %s', async (refusal) => {
    const { calls } = mockServer({
      'GET /_api/auth/session': signedIn({ credits: 3 }),
      'POST /_api/analyze-setup': { status: 422, body: { error: refusal, code: 'unprocessable' } },
    })
    renderResults({ pathname: '/results', state: request })
    expect(await screen.findByRole('heading', { name: 'Analysis Failed' })).toBeInTheDocument()
    expect(screen.getByTestId('analysis-error')).toHaveTextContent(refusal)
    const tips = screen.getByRole('region', { name: 'Tips for a better shot' })
    expect(within(tips).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Get the whole desk in frame: monitor, keyboard and chair.',
      'Turn the lights on (and your RGB, if you have it).',
      'Shoot from where you sit, or a step behind.',
      'Use a photo from your camera, not a screenshot.',
    ])
    expect(screen.getByText("You weren't charged for this photo.")).toBeInTheDocument()
    // Sending the same photo again gets the same answer.
    expect(screen.queryByRole('button', { name: 'Retry Analysis' })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Try Again' })).not.toBeInTheDocument()
    const choose = screen.getByRole('button', { name: 'Choose another photo' })
    expect(choose).toHaveClass('btn-primary')
    await userEvent.click(choose)
    expect(await screen.findByRole('heading', { name: 'Home page' })).toBeInTheDocument()
    expect(calls.filter((c) => c.path === '/_api/analyze-setup')).toHaveLength(1)
  })

  it('offers no retry, and no photo tips, when the server refuses a description', async () => {
    const refusal = "This description doesn't mention any desk or gaming gear. Describe your monitor, desk, chair, lighting or cables."
    mockServer({
      'GET /_api/auth/session': signedOut,
      'POST /_api/analyze-setup': { status: 422, body: { error: refusal, code: 'unprocessable' } },
    })
    renderResults({ pathname: '/results', state: { type: 'text', value: 'A sunny afternoon at the beach.' } })
    expect(await screen.findByRole('heading', { name: 'Analysis Failed' })).toBeInTheDocument()
    expect(screen.getByTestId('analysis-error')).toHaveTextContent(refusal)
    expect(screen.getByText("You weren't charged for this description.")).toBeInTheDocument()
    expect(screen.queryByRole('region', { name: 'Tips for a better shot' })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Retry Analysis' })).not.toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Try Again' }))
    expect(await screen.findByRole('heading', { name: 'Home page' })).toBeInTheDocument()
  })

  it('opens the credits dialog instead of the error when the trial is used', async () => {
    mockServer({
      'GET /_api/auth/session': signedOut,
      'POST /_api/analyze-setup': {
        status: 402,
        body: { error: "You've already used your free trial analysis. Sign up to get 3 free credits.", code: 'trial_used' },
      },
    })
    renderResults({ pathname: '/results', state: request })
    const dialog = await screen.findByRole('dialog', { name: 'Choose Your Path' })
    expect(within(dialog).getByRole('button', { name: 'Sign Up Free' })).toBeInTheDocument()
    expect(within(dialog).getByText("You've already used your free trial analysis. Sign up to get 3 free credits.")).toBeInTheDocument()
    expect(screen.queryByRole('heading', { name: 'Analysis Failed' })).not.toBeInTheDocument()
  })

  it("shows a shared network's trial limit as the server words it, not as a used trial", async () => {
    const limit = 'The free trial limit for your network has been reached today. Sign up to get 3 free credits.'
    mockServer({
      'GET /_api/auth/session': signedOut,
      'POST /_api/analyze-setup': { status: 402, body: { error: limit, code: 'trial_used' } },
    })
    renderResults({ pathname: '/results', state: request })
    const dialog = await screen.findByRole('dialog', { name: 'Choose Your Path' })
    expect(within(dialog).getByText(limit)).toBeInTheDocument()
    expect(within(dialog).queryByText(/You've used your free analysis/)).not.toBeInTheDocument()
  })

  it('says the service is briefly unavailable when a proxy answers with an HTML error page', async () => {
    mockServer({ 'GET /_api/auth/session': signedIn({ credits: 3 }) })
    const fetchMock = globalThis.fetch as unknown as ReturnType<typeof vi.fn>
    const original = fetchMock.getMockImplementation()!
    fetchMock.mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost')
      if (url.pathname === '/_api/analyze-setup') {
        return new Response('<html><body><h1>502 Bad Gateway</h1></body></html>', { status: 502, headers: { 'content-type': 'text/html' } })
      }
      return original(input, init)
    })
    renderResults({ pathname: '/results', state: request })
    expect(await screen.findByRole('heading', { name: 'Analysis Failed' })).toBeInTheDocument()
    expect(screen.getByTestId('analysis-error')).toHaveTextContent('The service is briefly unavailable. Please try again in a moment.')
    expect(screen.getByTestId('analysis-error')).not.toHaveTextContent(/JSON/)
  })

  it('opens the credits dialog when a member has no credits left', async () => {
    mockServer({
      'GET /_api/auth/session': signedIn({ credits: 0 }),
      'GET /_api/credits/ad-stats': { status: 200, body: { dailyAdsRemaining: 30, potentialCreditsToday: 10, uncreditedAds: 0, adsUntilNextCredit: 3 } },
      'POST /_api/analyze-setup': {
        status: 402,
        body: { error: 'Not enough credits. Watch an ad or buy a pack to continue.', code: 'insufficient_credits' },
      },
    })
    renderResults({ pathname: '/results', state: request })
    expect(await screen.findByRole('dialog', { name: 'Out of Credits!' })).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: 'Get a Credit to Continue', hidden: true })).toBeInTheDocument()
    expect(screen.queryByRole('heading', { name: 'Analysis Failed', hidden: true })).not.toBeInTheDocument()
  })

  it('shows any other refusal as a failed analysis, whatever its wording', async () => {
    mockServer({
      'GET /_api/auth/session': signedIn({ credits: 3 }),
      'POST /_api/analyze-setup': {
        status: 429,
        body: { error: 'Too many analyses (credits are fine). Try again in a minute.', code: 'rate_limited' },
      },
    })
    renderResults({ pathname: '/results', state: request })
    expect(await screen.findByRole('heading', { name: 'Analysis Failed' })).toBeInTheDocument()
    expect(screen.getByTestId('analysis-error')).toHaveTextContent('Too many analyses (credits are fine). Try again in a minute.')
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Retry Analysis' })).toBeInTheDocument()
  })
})
