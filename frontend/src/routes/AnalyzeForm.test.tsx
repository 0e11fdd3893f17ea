// The analyzer as the home page composes it: the analysis form with the credits feature's dialog.
import { fireEvent, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Route, Routes, useLocation } from 'react-router-dom'
import { useAuth } from '@/lib/auth'
import { AnalyzeForm } from '@/features/analysis/components/AnalyzeForm'
import { OutOfCreditsDialog } from '@/features/credits/components/OutOfCreditsDialog'
import { sampleSaved } from '@/features/analysis/testFixtures'
import { mockServer, renderApp, signedIn, signedOut } from '@/test-utils'

const downscale = vi.hoisted(() => vi.fn())
vi.mock('@/lib/imageDownscale', () => ({ downscaleToJpegDataUrl: downscale }))

afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
  downscale.mockReset()
})

function GrantCredit() {
  const { user, setUser } = useAuth()
  return user ? <button type="button" onClick={() => setUser({ ...user, credits: 1 })}>Grant credit</button> : null
}

function ResultsProbe() {
  const location = useLocation()
  return <pre data-testid="results-state">{JSON.stringify(location.state)}</pre>
}

function renderForm() {
  renderApp(
    <Routes>
      <Route path="/" element={<><AnalyzeForm creditsDialog={OutOfCreditsDialog} /><GrantCredit /></>} />
      <Route path="/results" element={<ResultsProbe />} />
    </Routes>,
  )
}

const photo = (name = 'desk.jpg', type = 'image/jpeg', size = 2048) => {
  const file = new File(['x'], name, { type })
  Object.defineProperty(file, 'size', { value: size })
  return file
}

describe('AnalyzeForm', () => {
  it('needs a photo: the button is disabled until one is chosen, then Clear appears', async () => {
    mockServer({ 'GET /_api/auth/session': signedOut })
    renderForm()
    const analyze = screen.getByRole('button', { name: 'Analyze My Setup' })
    expect(analyze).toBeDisabled()
    expect(screen.queryByRole('button', { name: 'Clear' })).not.toBeInTheDocument()
    const input = screen.getByLabelText(/Setup photo/)
    expect(input).toBeRequired()
    expect(screen.getByLabelText('Description (optional)')).toHaveAttribute('rows', '4')

    await userEvent.upload(input, photo())
    expect(screen.getByTestId('chosen-file')).toHaveTextContent('desk.jpg')
    expect(analyze).toBeEnabled()
    await userEvent.click(screen.getByRole('button', { name: 'Clear' }))
    expect(analyze).toBeDisabled()
    expect(screen.queryByTestId('chosen-file')).not.toBeInTheDocument()
  })

  it('shows the dropzone messages for the wrong type, size and count', async () => {
    mockServer({ 'GET /_api/auth/session': signedOut })
    renderForm()
    const input = screen.getByLabelText(/Setup photo/)
    await userEvent.upload(input, photo('anim.gif', 'image/gif'), { applyAccept: false })
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid file type. Accepted: image/jpeg, image/png, image/webp')

    await userEvent.upload(input, photo('huge.png', 'image/png', 10 * 1024 * 1024 + 1))
    expect(await screen.findByRole('alert')).toHaveTextContent('File size exceeds 10MB limit')

    fireEvent.drop(screen.getByTestId('dropzone'), { dataTransfer: { files: [photo('a.jpg'), photo('b.jpg')] } })
    expect(await screen.findByRole('alert')).toHaveTextContent('Maximum 1 file(s) allowed')
    expect(screen.getByRole('button', { name: 'Analyze My Setup' })).toBeDisabled()

    fireEvent.drop(screen.getByTestId('dropzone'), { dataTransfer: { files: [photo('ok.webp', 'image/webp')] } })
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument())
    expect(screen.getByRole('button', { name: 'Analyze My Setup' })).toBeEnabled()
  })

  it('sends a visitor to /results with the downscaled photo and the description', async () => {
    mockServer({ 'GET /_api/auth/session': signedOut })
    downscale.mockResolvedValue('data:image/jpeg;base64,AAAA')
    renderForm()
    await userEvent.upload(screen.getByLabelText(/Setup photo/), photo('rig.png', 'image/png'))
    await userEvent.type(screen.getByLabelText('Description (optional)'), '  Dual monitors, purple RGB  ')
    await userEvent.click(screen.getByRole('button', { name: 'Analyze My Setup' }))
    const state = JSON.parse((await screen.findByTestId('results-state')).textContent ?? '')
    expect(state).toEqual({ type: 'image', value: 'data:image/jpeg;base64,AAAA', fileName: 'rig.png', description: 'Dual monitors, purple RGB' })
    expect(downscale).toHaveBeenCalledWith(expect.any(File), 1920, 1080, 0.9)
  })

  it('says under the form, not in a browser alert, when the photo cannot be processed', async () => {
    mockServer({ 'GET /_api/auth/session': signedIn() })
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined)
    downscale.mockRejectedValue(new Error('Failed to load image'))
    renderForm()
    await userEvent.upload(screen.getByLabelText(/Setup photo/), photo())
    await userEvent.click(screen.getByRole('button', { name: 'Analyze My Setup' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to process image. Please try a different image.')
    expect(alert).not.toHaveBeenCalled()
    expect(screen.queryByTestId('results-state')).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Analyze My Setup' })).toBeEnabled()

    // Another photo clears the message.
    await userEvent.click(screen.getByRole('button', { name: 'Clear' }))
    await waitFor(() => expect(screen.queryByText('Failed to process image. Please try a different image.')).not.toBeInTheDocument())
  })

  it('holds a member without credits behind the dialog, and drops the analysis when it is closed', async () => {
    mockServer({
      'GET /_api/auth/session': signedIn({ credits: 0 }),
      'GET /_api/credits/ad-stats': { status: 200, body: { dailyAdsRemaining: 30, potentialCreditsToday: 10, uncreditedAds: 0, adsUntilNextCredit: 3 } },
    })
    renderForm()
    await screen.findByText('You have no credits left. Analyzing opens the ways to get one.')
    await userEvent.upload(screen.getByLabelText(/Setup photo/), photo())
    await userEvent.click(screen.getByRole('button', { name: 'Analyze My Setup' }))
    expect(await screen.findByRole('dialog', { name: 'Out of Credits!' })).toBeInTheDocument()
    expect(downscale).not.toHaveBeenCalled()
    await userEvent.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(downscale).not.toHaveBeenCalled()
  })

  it('resumes the held analysis once a credit arrives', async () => {
    mockServer({
      'GET /_api/auth/session': signedIn({ credits: 0 }),
      'GET /_api/credits/ad-stats': { status: 200, body: { dailyAdsRemaining: 30, potentialCreditsToday: 10, uncreditedAds: 0, adsUntilNextCredit: 3 } },
    })
    downscale.mockResolvedValue('data:image/jpeg;base64,BBBB')
    renderForm()
    await screen.findByText('You have no credits left. Analyzing opens the ways to get one.')
    await userEvent.upload(screen.getByLabelText(/Setup photo/), photo('held.jpg'))
    await userEvent.click(screen.getByRole('button', { name: 'Analyze My Setup' }))
    await screen.findByRole('dialog', { name: 'Out of Credits!' })
    // An ad (or a purchase) put a credit on the balance.
    fireEvent.click(screen.getByRole('button', { name: 'Grant credit', hidden: true }))
    const state = JSON.parse((await screen.findByTestId('results-state')).textContent ?? '')
    expect(state).toMatchObject({ type: 'image', value: 'data:image/jpeg;base64,BBBB', fileName: 'held.jpg' })
  })
  it('asks for at least 20 characters in a description given with the photo', async () => {
    mockServer({ 'GET /_api/auth/session': signedOut })
    downscale.mockResolvedValue('data:image/jpeg;base64,CCCC')
    renderForm()
    await userEvent.upload(screen.getByLabelText(/Setup photo/), photo('rig.png', 'image/png'))
    const note = screen.getByLabelText('Description (optional)')
    await userEvent.type(note, 'RGB everywhere')
    await userEvent.click(screen.getByRole('button', { name: 'Analyze My Setup' }))
    expect(await screen.findByText('Please describe your setup in at least 20 characters.')).toBeInTheDocument()
    expect(note).toHaveAttribute('aria-invalid', 'true')
    expect(screen.queryByTestId('results-state')).not.toBeInTheDocument()
    expect(downscale).not.toHaveBeenCalled()

    // Emptied again, the note is simply left out.
    await userEvent.clear(note)
    await userEvent.click(screen.getByRole('button', { name: 'Analyze My Setup' }))
    const state = JSON.parse((await screen.findByTestId('results-state')).textContent ?? '')
    expect(state).toEqual({ type: 'image', value: 'data:image/jpeg;base64,CCCC', fileName: 'rig.png' })
  })

  it('offers describing the setup instead of a photo, and sends the description to /results', async () => {
    mockServer({ 'GET /_api/auth/session': signedOut })
    renderForm()
    const photoTab = screen.getByRole('tab', { name: 'Photo' })
    expect(photoTab).toHaveAttribute('aria-selected', 'true')
    await userEvent.click(screen.getByRole('tab', { name: 'Describe' }))
    expect(screen.getByRole('tab', { name: 'Describe' })).toHaveAttribute('aria-selected', 'true')
    // The photo path is out of view meanwhile.
    expect(screen.getByLabelText(/Setup photo/)).not.toBeVisible()

    const text = screen.getByRole('textbox', { name: 'Describe your setup' })
    expect(screen.getByText('At least 20 characters.')).toBeInTheDocument()
    // No message while typing a first time; it comes once the field is left.
    await userEvent.type(text, 'White desk')
    expect(screen.queryByText('Please describe your setup in at least 20 characters.')).not.toBeInTheDocument()
    await userEvent.tab()
    expect(await screen.findByRole('alert')).toHaveTextContent('Please describe your setup in at least 20 characters.')
    expect(text).toHaveAttribute('aria-invalid', 'true')

    // Submitting a short text is refused the same way; spaces do not count.
    await userEvent.clear(text)
    await userEvent.type(text, '   short text        ')
    await userEvent.click(screen.getByRole('button', { name: 'Analyze My Setup' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Please describe your setup in at least 20 characters.')
    expect(screen.queryByTestId('results-state')).not.toBeInTheDocument()

    await userEvent.clear(text)
    await userEvent.type(text, '  Two monitors on arms, a white desk and a purple RGB strip.  ')
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument())
    await userEvent.click(screen.getByRole('button', { name: 'Analyze My Setup' }))
    const state = JSON.parse((await screen.findByTestId('results-state')).textContent ?? '')
    expect(state).toEqual({ type: 'text', value: 'Two monitors on arms, a white desk and a purple RGB strip.' })
    expect(downscale).not.toHaveBeenCalled()
  })

  it('keeps what was entered when switching between Photo and Describe', async () => {
    mockServer({ 'GET /_api/auth/session': signedOut })
    renderForm()
    await userEvent.upload(screen.getByLabelText(/Setup photo/), photo('kept.jpg'))
    await userEvent.click(screen.getByRole('tab', { name: 'Describe' }))
    await userEvent.type(screen.getByRole('textbox', { name: 'Describe your setup' }), 'A compact desk')
    await userEvent.click(screen.getByRole('tab', { name: 'Photo' }))
    expect(screen.getByTestId('chosen-file')).toHaveTextContent('kept.jpg')
    await userEvent.click(screen.getByRole('tab', { name: 'Describe' }))
    expect(screen.getByRole('textbox', { name: 'Describe your setup' })).toHaveValue('A compact desk')
  })

  it('holds a described setup behind the credits dialog too, and sends it once a credit arrives', async () => {
    mockServer({
      'GET /_api/auth/session': signedIn({ credits: 0 }),
      'GET /_api/credits/ad-stats': { status: 200, body: { dailyAdsRemaining: 30, potentialCreditsToday: 10, uncreditedAds: 0, adsUntilNextCredit: 3 } },
    })
    renderForm()
    await screen.findByText('You have no credits left. Analyzing opens the ways to get one.')
    await userEvent.click(screen.getByRole('tab', { name: 'Describe' }))
    await userEvent.type(screen.getByRole('textbox', { name: 'Describe your setup' }), 'Ultrawide monitor, walnut desk, mesh chair.')
    await userEvent.click(screen.getByRole('button', { name: 'Analyze My Setup' }))
    await screen.findByRole('dialog', { name: 'Out of Credits!' })
    expect(screen.queryByTestId('results-state')).not.toBeInTheDocument()
    fireEvent.click(screen.getByRole('button', { name: 'Grant credit', hidden: true }))
    const state = JSON.parse((await screen.findByTestId('results-state')).textContent ?? '')
    expect(state).toEqual({ type: 'text', value: 'Ultrawide monitor, walnut desk, mesh chair.' })
  })

  it('re-rates a setup: says which analysis it compares with, and links the next one to it', async () => {
    mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/my-analyses': { status: 200, body: { analyses: [sampleSaved(41, 5.2, '2026-03-01T10:00:00Z')], total: 1 } },
    })
    const stop = vi.fn()
    renderApp(
      <Routes>
        <Route path="/" element={<AnalyzeForm creditsDialog={OutOfCreditsDialog} previousAnalysisId={41} onStopRerating={stop} />} />
        <Route path="/results" element={<ResultsProbe />} />
      </Routes>,
    )
    expect(await screen.findByTestId('rerate-banner')).toHaveTextContent('Re-rating your setup from Mar 1, 2026 (5.2/10).')
    await userEvent.click(screen.getByRole('button', { name: 'Rate a different setup' }))
    expect(stop).toHaveBeenCalled()
    await userEvent.click(screen.getByRole('tab', { name: 'Describe' }))
    await userEvent.type(screen.getByRole('textbox', { name: 'Describe your setup' }), 'The same desk, cables now in a tray.')
    await userEvent.click(screen.getByRole('button', { name: 'Analyze My Setup' }))
    const state = JSON.parse((await screen.findByTestId('results-state')).textContent ?? '')
    expect(state).toEqual({ type: 'text', value: 'The same desk, cables now in a tray.', previousAnalysisId: 41 })
  })
})
