import { act, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { SWRConfig } from 'swr'
import { mockServer } from '@/test-utils'
import { draftFromEditor, toRequest, type ConfigRequest } from '../draft'
import { sampleEditor } from '../testFixtures'
import { PreviewPane } from './PreviewPane'

afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

const base = toRequest(draftFromEditor(sampleEditor()))
const withTagline = (tagline: string): ConfigRequest => ({ ...base, rigpageTagline: tagline })

function renderPane(request: ConfigRequest) {
  const ui = (r: ConfigRequest) => (
    <SWRConfig value={{ provider: () => new Map() }}>
      <PreviewPane request={r} />
    </SWRConfig>
  )
  const view = render(ui(request))
  return { rerender: (r: ConfigRequest) => view.rerender(ui(r)) }
}

/** Lets pending promises (the mocked fetch) settle. */
async function flush() {
  await act(async () => {
    for (let i = 0; i < 5; i++) await Promise.resolve()
  })
}

describe('PreviewPane', () => {
  it('renders the server\'s HTML in a sandboxed frame', async () => {
    mockServer({ 'POST /_api/rigpage/preview': { status: 200, body: { html: '<p>hello</p>' } } })
    renderPane(base)
    const frame = await screen.findByTitle('RigPage preview')
    expect(frame).toHaveAttribute('sandbox', '')
    expect(frame).toHaveAttribute('srcdoc', '<p>hello</p>')
  })

  it('asks for a new preview only once the draft has been still for 300 ms', async () => {
    vi.useFakeTimers()
    const server = mockServer({ 'POST /_api/rigpage/preview': (body) => ({ status: 200, body: { html: `<p>${(body as ConfigRequest).rigpageTagline ?? ''}</p>` } }) })
    const previews = () => server.calls.filter((c) => c.path === '/_api/rigpage/preview')
    const pane = renderPane(base)
    await flush()
    expect(previews()).toHaveLength(1)

    pane.rerender(withTagline('G'))
    act(() => vi.advanceTimersByTime(100))
    pane.rerender(withTagline('GG'))
    act(() => vi.advanceTimersByTime(100))
    pane.rerender(withTagline('GGG'))
    act(() => vi.advanceTimersByTime(299))
    await flush()
    expect(previews()).toHaveLength(1)

    act(() => vi.advanceTimersByTime(1))
    await flush()
    expect(previews()).toHaveLength(2)
    expect((previews()[1]!.body as ConfigRequest).rigpageTagline).toBe('GGG')
    expect(screen.getByTitle('RigPage preview')).toHaveAttribute('srcdoc', '<p>GGG</p>')
  })

  it('keeps the last good preview when the server refuses a draft', async () => {
    vi.useFakeTimers()
    mockServer({
      'POST /_api/rigpage/preview': (body) =>
        (body as ConfigRequest).rigpageTagline === 'bad'
          ? { status: 400, body: { error: 'Please enter a valid URL.', code: 'validation_failed', issues: [] } }
          : { status: 200, body: { html: '<p>good</p>' } },
    })
    const pane = renderPane(base)
    await flush()
    pane.rerender(withTagline('bad'))
    act(() => vi.advanceTimersByTime(300))
    await flush()
    expect(screen.getByTitle('RigPage preview')).toHaveAttribute('srcdoc', '<p>good</p>')
    expect(screen.getByText('The preview shows your last valid changes.')).toBeInTheDocument()
  })

  it('zooms from 50 to 150 % in steps of 25', async () => {
    mockServer({ 'POST /_api/rigpage/preview': { status: 200, body: { html: '<p>x</p>' } } })
    renderPane(base)
    const zoom = screen.getByTestId('preview-zoom')
    expect(zoom).toHaveTextContent('100%')
    const zoomIn = screen.getByRole('button', { name: 'Zoom in' })
    const zoomOut = screen.getByRole('button', { name: 'Zoom out' })
    await userEvent.click(zoomIn)
    await userEvent.click(zoomIn)
    expect(zoom).toHaveTextContent('150%')
    expect(zoomIn).toBeDisabled()
    for (let i = 0; i < 4; i++) await userEvent.click(zoomOut)
    expect(zoom).toHaveTextContent('50%')
    expect(zoomOut).toBeDisabled()
  })
})
