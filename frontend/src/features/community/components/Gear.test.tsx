import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { mockServer, renderApp, signedIn } from '@/test-utils'
import { checkGear, GEAR_URL, newRow, rowsOf, type GearRow } from '../gear'
import { sampleResult } from '../testFixtures'
import { GearEditor } from './GearEditor'
import { GearList } from './GearList'
import { PublishDialog } from './PublishDialog'

// jsdom decodes no images: the browser's downscale is stood in for.
vi.mock('@/lib/imageDownscale', () => ({ downscaleToJpegDataUrl: async () => 'data:image/jpeg;base64,/9j/' }))

afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

function Editor({ initial, onRows }: { initial: GearRow[]; onRows?: (rows: GearRow[]) => void }) {
  const [rows, setRows] = useState(initial)
  const [error, setError] = useState<{ message: string; index: number } | null>(null)
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault()
        const checked = checkGear(rows)
        setError('error' in checked ? { message: checked.error, index: checked.index } : null)
        onRows?.(rows)
      }}
    >
      <GearEditor rows={rows} onChange={setRows} error={error} />
      <button type="submit">Save</button>
    </form>
  )
}

describe('GearList', () => {
  const gear = [
    { id: 4, name: 'LG 27GP850', category: 'monitor' as const, hasLink: true },
    { id: 5, name: 'My own desk', category: 'desk' as const, hasLink: false },
    { id: 6, name: 'Keychron Q1', category: 'keyboard' as const, hasLink: true },
    { id: 7, name: 'Embody', category: 'chair' as const, hasLink: false },
  ]

  it('links pieces with a link through the counted redirect, as sponsored links', () => {
    render(<GearList gear={gear} />)
    const list = screen.getByRole('region', { name: 'Gear in this setup' })
    const monitor = within(list).getByRole('link', { name: 'LG 27GP850' })
    expect(monitor).toHaveAttribute('href', '/go/gear/4')
    expect(monitor).toHaveAttribute('rel', 'nofollow sponsored noopener')
    expect(within(list).queryByRole('link', { name: 'My own desk' })).toBeNull()
    expect(within(list).getByText('My own desk')).toBeInTheDocument()
    expect(within(list).getByText('Keyboard')).toBeInTheDocument()
    expect(within(list).getAllByRole('listitem')).toHaveLength(4)
  })

  it('shows a card the first few and how many more; nothing without gear', () => {
    const { container, rerender } = render(<GearList gear={gear} limit={3} />)
    expect(screen.getAllByRole('listitem')).toHaveLength(3)
    expect(screen.getByText('+1 more')).toBeInTheDocument()
    rerender(<GearList gear={[]} />)
    expect(container).toBeEmptyDOMElement()
  })
})

describe('GearEditor', () => {
  it('adds, names, categorises and removes rows, and keeps only what the owner ticks', async () => {
    const seen = vi.fn()
    const offered: GearRow = { ...newRow('chair'), name: 'Chair', kept: false, suggested: true }
    render(<Editor initial={[offered]} onRows={seen} />)
    expect(screen.getByText(/tick Keep for each piece/)).toBeInTheDocument()
    expect(screen.getByText('0 of 20 kept')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: /Add gear/ }))
    await userEvent.type(screen.getByLabelText('Name of gear 2'), 'Logitech G Pro X')
    await userEvent.selectOptions(screen.getByLabelText('Category of gear 2'), 'mouse')
    await userEvent.type(screen.getByLabelText('Shop link of gear 2 (optional)'), 'https://shop.example.com/gpro')
    expect(screen.getByText('1 of 20 kept')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    const rows = seen.mock.lastCall?.[0] as GearRow[]
    expect(checkGear(rows)).toEqual({ items: [{ name: 'Logitech G Pro X', category: 'mouse', url: 'https://shop.example.com/gpro' }] })

    await userEvent.click(screen.getAllByRole('checkbox', { name: 'Keep' })[0]!)
    expect(screen.getByText('2 of 20 kept')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Remove Chair' }))
    expect(screen.getAllByTestId('gear-row')).toHaveLength(1)
  })

  it('says which row breaks a rule, in the server words', async () => {
    render(<Editor initial={[{ ...newRow('monitor'), name: 'Arm', url: 'javascript:alert(1)' }]} />)
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(screen.getByRole('alert')).toHaveTextContent(GEAR_URL)
    expect(screen.getByLabelText('Name of gear 1')).toHaveAttribute('aria-invalid', 'true')
  })

  it('marks a stored link the daily check found dead until the owner edits it', async () => {
    const [arm, monitor] = rowsOf([
      { id: 1, name: 'Monitor arm', category: 'other', url: 'https://shop.example.com/arm', hasLink: true, clicks: 2, linkDead: true },
      { id: 2, name: 'LG 27GP850', category: 'monitor', url: 'https://shop.example.com/lg', hasLink: true, clicks: 0, linkDead: false },
    ])
    render(<Editor initial={[arm!, monitor!]} />)
    expect(screen.getAllByText('Not working')).toHaveLength(1)
    const link = screen.getByLabelText('Shop link of gear 1 (optional)')
    expect(link).toHaveAccessibleDescription(/could not open this link twice in a row/)
    expect(screen.getByLabelText('Shop link of gear 2 (optional)')).not.toHaveAccessibleDescription()
    await userEvent.clear(link)
    await userEvent.type(link, 'https://shop.example.com/arm-v2')
    expect(screen.queryByText('Not working')).toBeNull()
  })

  it('stops adding at 20 kept pieces', async () => {
    render(<Editor initial={Array.from({ length: 20 }, (_, i) => ({ ...newRow(), name: `Thing ${i}` }))} />)
    expect(screen.getByRole('button', { name: /Add gear/ })).toBeDisabled()
    expect(screen.getByText('20 of 20 kept')).toBeInTheDocument()
  })
})

describe('publishing with gear', () => {
  it('offers what the analysis saw and publishes only the rows the owner kept', async () => {
    const result = sampleResult()
    const server = mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/my-analyses': {
        status: 200,
        body: { analyses: [{ id: 11, createdAt: '2026-03-14T09:26:53Z', improvementSuggestions: [], inputData: '/media/analyses/1.jpg', inputType: 'image', overallRating: 7.3, thumbnailUrl: null, result }] },
      },
      'POST /_api/community/setup': { status: 200, body: { success: true, setupId: 3 } },
      'POST /_api/community/gear': { status: 200, body: { items: [] } },
    })
    renderApp(<PublishDialog open onOpenChange={() => undefined} />)
    const dialog = await screen.findByRole('dialog', { name: 'Publish Setup to Community' })
    await userEvent.click(await within(dialog).findByRole('button', { name: /Choose analysis/ }))
    // Two monitors (the summary says dual), the chair and the lighting the categories judged.
    const names = within(dialog).getAllByLabelText(/^Name of gear/).map((input) => (input as HTMLInputElement).value)
    expect(names).toEqual(['Monitor 1', 'Monitor 2', 'Chair', 'Lighting'])
    expect(within(dialog).getByText('0 of 20 kept')).toBeInTheDocument()

    await userEvent.clear(within(dialog).getByLabelText('Name of gear 1'))
    await userEvent.type(within(dialog).getByLabelText('Name of gear 1'), 'LG 27GP850')
    await userEvent.type(within(dialog).getByLabelText('Shop link of gear 1 (optional)'), 'https://shop.example.com/lg')
    await userEvent.click(within(dialog).getAllByRole('checkbox', { name: 'Keep' })[0]!)
    await userEvent.click(within(dialog).getAllByRole('checkbox', { name: 'Keep' })[2]!)
    await userEvent.click(within(dialog).getByRole('button', { name: 'Publish to Community' }))
    await waitFor(() => expect(server.calls.some((c) => c.path === '/_api/community/gear')).toBe(true))
    expect(server.calls.find((c) => c.path === '/_api/community/gear')?.body).toEqual({
      setupId: 3,
      items: [
        { name: 'LG 27GP850', category: 'monitor', url: 'https://shop.example.com/lg' },
        { name: 'Chair', category: 'chair' },
      ],
    })
  })

  it('sends no gear when the owner kept none', async () => {
    const server = mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/my-analyses': {
        status: 200,
        body: { analyses: [{ id: 12, createdAt: '2026-03-14T09:26:53Z', improvementSuggestions: [], inputData: 'Two monitors, a keyboard and a mouse', inputType: 'text', overallRating: 6, thumbnailUrl: null }] },
      },
      'POST /_api/community/setup': { status: 200, body: { success: true, setupId: 4 } },
    })
    renderApp(<PublishDialog open onOpenChange={() => undefined} />)
    const dialog = await screen.findByRole('dialog', { name: 'Publish Setup to Community' })
    await userEvent.click(await within(dialog).findByRole('button', { name: /Choose analysis/ }))
    expect(within(dialog).getAllByTestId('gear-row')).toHaveLength(4)
    await userEvent.upload(within(dialog).getByTestId('photo-input'), new File(['x'], 'a.png', { type: 'image/png' }))
    await within(dialog).findByTestId('photo-item')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Publish to Community' }))
    await waitFor(() => expect(server.calls.some((c) => c.path === '/_api/community/setup')).toBe(true))
    expect(server.calls.some((c) => c.path === '/_api/community/gear')).toBe(false)
  })
})
