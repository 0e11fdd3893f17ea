import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Route, Routes } from 'react-router-dom'
import { Toaster, toast } from 'sonner'
import { useAuth } from '@/lib/auth'
import { mockServer, renderApp, signedIn, signedOut } from '@/test-utils'
import { PREVIEW_DEBOUNCE_MS, type ConfigRequest, type Editor } from '../draft'
import { sampleEditor, sampleLinks, sampleThemes } from '../testFixtures'
import { GO_LIVE_NEEDS, RigpageEditorPage } from './RigpageEditor'

afterEach(() => {
  toast.dismiss()
  vi.unstubAllGlobals()
})

function AuthProbe() {
  const { authDialog, closeAuth, user } = useAuth()
  return (
    <>
      <output aria-label="Auth dialog">{authDialog.open ? authDialog.tab : 'closed'}</output>
      <output aria-label="Header credits">{user ? String(user.credits) : '-'}</output>
      <button type="button" onClick={closeAuth}>Close auth</button>
    </>
  )
}

function renderEditor() {
  return renderApp(
    <>
      <AuthProbe />
      <Toaster />
      <Routes>
        <Route path="/rigpage-config" element={<RigpageEditorPage />} />
        <Route path="/" element={<p>Home page</p>} />
      </Routes>
    </>,
    { route: '/rigpage-config' },
  )
}

type Reply = { status: number; body: unknown }

/** The server's answer to a save of `body`: the page as saved, what it cost and the balance. */
function saved(body: ConfigRequest, overrides: Partial<Editor> = {}, charged = { credits: 0, publish: false, linkBatches: 0 }): Reply {
  const links = (body.links ?? []).map((link, i) => ({ ...link, id: link.id ?? 500 + i, displayOrder: i, enabled: link.enabled ?? true, section: link.section ?? null, imageUrl: link.imageUrl ?? null }))
  return {
    status: 200,
    body: {
      ...sampleEditor(),
      ...body,
      rigpageSocialLinks: body.rigpageSocialLinks ?? {},
      links,
      saved: true,
      ...overrides,
      charged,
    },
  }
}

/** The fake server; the session's balance follows what saves report. */
function server(editor: Editor, save?: (body: ConfigRequest) => Reply, session = signedIn()) {
  let credits = (session.body as { user: { credits: number } }).user.credits
  return mockServer({
    'GET /_api/auth/session': () => signedIn({ credits }),
    'GET /_api/rigpage/config': { status: 200, body: editor },
    'GET /_api/rigpage/themes': { status: 200, body: sampleThemes },
    'GET /_api/rigpage/stats': { status: 200, body: { days: 30, views: 12, clicks: 3, clickThroughRate: 0.25, topLink: { linkId: 100, label: 'Link 1', clicks: 2 }, links: [], daily: [] } },
    'POST /_api/rigpage/preview': { status: 200, body: { html: '<p>preview</p>' } },
    ...(save
      ? {
          'POST /_api/rigpage/config': (body: unknown) => {
            const reply = save(body as ConfigRequest)
            if (reply.status === 200) credits = (reply.body as Editor).credits
            return reply
          },
        }
      : {}),
  })
}

const saves = (calls: { method: string; path: string; body: unknown }[]) =>
  calls.filter((c) => c.method === 'POST' && c.path === '/_api/rigpage/config').map((c) => c.body as ConfigRequest)

/**
 * The "Add a link" form, once the editor has loaded. Queries stay inside it: jsdom finds an
 * element's labels by walking the whole document, so a label query over an editor with 15
 * links costs about a second, and inside this form a few milliseconds.
 */
async function newLinkForm() {
  const title = await screen.findByText('Add a link')
  const form = title.closest('form')
  if (!form) throw new Error('the "Add a link" title is outside its form')
  return within(form)
}

async function addLink(label: string, url: string) {
  const form = await newLinkForm()
  await userEvent.click(form.getByLabelText('New link label'))
  await userEvent.paste(label)
  await userEvent.click(form.getByLabelText('New link URL'))
  await userEvent.paste(url)
  await userEvent.click(form.getByRole('button', { name: 'Add Link' }))
}

describe('the RigPage editor', () => {
  it('asks visitors to sign in and goes home when they close the dialog', async () => {
    mockServer({ 'GET /_api/auth/session': signedOut })
    renderEditor()
    await waitFor(() => expect(screen.getByLabelText('Auth dialog')).toHaveTextContent('login'))
    await userEvent.click(screen.getByRole('button', { name: 'Close auth' }))
    expect(await screen.findByText('Home page')).toBeInTheDocument()
  })

  it('shows the best score, the setups and the saved values', async () => {
    server(sampleEditor({ rigpageTagline: 'RGB all day' }))
    renderEditor()
    expect(await screen.findByRole('heading', { name: 'Create Your Link in Bio', level: 1 })).toBeInTheDocument()
    expect(screen.getByText('Your Best Score')).toBeInTheDocument()
    expect(screen.getByTestId('best-score')).toHaveTextContent('7.5')
    expect(screen.getByLabelText('Tagline')).toHaveValue('RGB all day')
    expect(screen.getByText('11/100')).toBeInTheDocument()
    expect(screen.getByRole('radio', { name: /Score 7\.5/ })).toBeChecked()
    expect(screen.getByLabelText('Display Name')).toHaveAttribute('readonly')
    expect(screen.getByRole('textbox', { name: 'Bio' })).toHaveAttribute('rows', '3')
    expect(screen.getByLabelText('Twitch')).toHaveAttribute('placeholder', 'https://twitch.tv/yourname')
  })

  it('invites users without analyses to analyse a setup first', async () => {
    server(sampleEditor({ bestScore: null, setups: [], rigpageSetupId: null, showSetupInBackground: false }))
    renderEditor()
    expect(await screen.findByText(/No analyses yet\? Analyze your first setup to get started!/)).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Analyze a Setup' })).toHaveAttribute('href', '/')
    expect(screen.getByRole('button', { name: 'Go Live' })).toBeDisabled()
    expect(screen.getByRole('switch', { name: 'Show setup in hero' })).toBeDisabled()
    expect(screen.getByLabelText('Setup blur')).toBeDisabled()
  })

  it('locks the slug and the community badge while the page is private', async () => {
    server(sampleEditor())
    renderEditor()
    expect(await screen.findByLabelText('Page URL')).toBeDisabled()
    expect(screen.getByRole('switch', { name: 'Show RigPage badge on Community' })).toBeDisabled()
    expect(screen.getByRole('button', { name: 'View live page' })).toBeDisabled()
  })

  it('takes a private page\'s first address as it is typed, key by key', async () => {
    server(sampleEditor({ rigpageSlug: null }))
    renderEditor()
    const slug = await screen.findByLabelText('Page URL')
    await userEvent.type(slug, 'pixel-den')
    expect(slug).toHaveValue('pixel-den')
    expect(slug).toBeEnabled()
  })

  it('enables the blur and opacity sliders only with a setup photo shown in the hero', async () => {
    server(sampleEditor({ showSetupInBackground: false }))
    renderEditor()
    const toggle = await screen.findByRole('switch', { name: 'Show setup in hero' })
    expect(toggle).toBeEnabled()
    expect(screen.getByLabelText('Setup blur')).toBeDisabled()
    expect(screen.getByLabelText('Setup opacity')).toBeDisabled()
    await userEvent.click(toggle)
    expect(screen.getByLabelText('Setup blur')).toBeEnabled()
    expect(screen.getByLabelText('Setup opacity')).toBeEnabled()
  })

  it('labels the corner radius', async () => {
    server(sampleEditor({ buttonCornerRadius: 85 }))
    renderEditor()
    const slider = await screen.findByLabelText('Corner radius')
    expect(slider).toHaveAttribute('aria-valuetext', '85 · Pill shape')
    expect(slider).toHaveAttribute('step', '1')
  })

  it('applies a theme preset and says so', async () => {
    server(sampleEditor())
    renderEditor()
    await userEvent.click(await screen.findByRole('button', { name: 'Matrix' }))
    expect(screen.getByRole('button', { name: 'Matrix' })).toHaveAttribute('aria-pressed', 'true')
    expect(await screen.findByText('Theme "Matrix" applied with preset customizations!')).toBeInTheDocument()
    expect(screen.getByLabelText('Font')).toHaveValue('mono')
    expect(screen.getByLabelText('Corner radius')).toHaveValue('0')
    expect(screen.getByLabelText('Highlight color')).toHaveValue('#00ff41')
  })

  it('adds the first five links free, without saving', async () => {
    const calls = server(sampleEditor({ links: sampleLinks(4) }))
    renderEditor()
    await newLinkForm()
    await addLink('Shop', 'https://shop.example.com')
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(screen.getAllByTestId('link-row')).toHaveLength(5)
    expect(saves(calls.calls)).toHaveLength(0)
    expect((await newLinkForm()).getByLabelText('New link label')).toHaveValue('')
  })

  it('checks a new link before adding it', async () => {
    server(sampleEditor())
    renderEditor()
    await newLinkForm()
    await addLink(' ', 'javascript:alert(1)')
    expect(screen.getByText('Label cannot be empty.')).toBeInTheDocument()
    expect(screen.getByText('Please enter a valid URL.')).toBeInTheDocument()
    expect(screen.queryAllByTestId('link-row')).toHaveLength(0)
  })

  it('asks for 1 credit for the 6th link, then adds it and saves at once', async () => {
    const calls = server(sampleEditor({ links: sampleLinks(5) }), (body) => saved(body, { paidLinkBatches: 1, credits: 2 }, { credits: 1, publish: false, linkBatches: 1 }))
    renderEditor()
    await newLinkForm()
    await addLink('Sixth', 'https://six.example.com')
    const dialog = await screen.findByRole('dialog', { name: 'Unlock More Links?' })
    expect(within(dialog).getByTestId('credit-cost')).toHaveTextContent('1 credit')
    expect(saves(calls.calls)).toHaveLength(0)
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Link for 1 credit' }))
    expect(await screen.findByText('Link added! 1 credit deducted.')).toBeInTheDocument()
    const [body] = saves(calls.calls)
    expect(body?.links).toHaveLength(6)
    expect(body?.links?.[5]).toMatchObject({ label: 'Sixth', url: 'https://six.example.com', displayOrder: 5 })
    expect(body?.rigpageEnabled).toBe(false)
    expect(screen.getAllByTestId('link-row')).toHaveLength(6)
    expect(screen.getByLabelText('Header credits')).toHaveTextContent('2')
  })

  it('does not ask again within a paid batch, and asks at 15', async () => {
    server(sampleEditor({ links: sampleLinks(14), paidLinkBatches: 1 }))
    renderEditor()
    await newLinkForm()
    await addLink('Fifteenth', 'https://15.example.com')
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(screen.getAllByTestId('link-row')).toHaveLength(15)
    await addLink('Sixteenth', 'https://16.example.com')
    expect(await screen.findByRole('dialog', { name: 'Unlock More Links?' })).toBeInTheDocument()
  })

  it('cannot add a paid link without credits', async () => {
    server(sampleEditor({ links: sampleLinks(5), credits: 0 }), undefined, signedIn({ credits: 0 }))
    renderEditor()
    await newLinkForm()
    await addLink('Sixth', 'https://six.example.com')
    const dialog = await screen.findByRole('dialog', { name: 'Unlock More Links?' })
    expect(within(dialog).getByText("⚠️ You don't have enough credits. Purchase more credits to continue.")).toBeInTheDocument()
    expect(within(dialog).getByRole('button', { name: 'Add Link for 1 credit' })).toBeDisabled()
  })

  it('gives the credit back and says why when adding the link fails', async () => {
    server(sampleEditor({ links: sampleLinks(5) }), () => ({ status: 402, body: { error: "You don't have enough credits: this change costs 1 credit.", code: 'insufficient_credits' } }))
    renderEditor()
    await newLinkForm()
    await addLink('Sixth', 'https://six.example.com')
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Add Link for 1 credit' }))
    expect(await screen.findByText("You don't have enough credits: this change costs 1 credit.")).toBeInTheDocument()
    expect(screen.getAllByTestId('link-row')).toHaveLength(5)
    expect(screen.getByLabelText('Header credits')).toHaveTextContent('3')
  })

  it('goes live after confirming 1 credit', async () => {
    const calls = server(sampleEditor(), (body) => saved(body, { everPublished: true, credits: 2 }, { credits: 1, publish: true, linkBatches: 0 }))
    renderEditor()
    await userEvent.click(await screen.findByRole('button', { name: 'Go Live' }))
    const dialog = await screen.findByRole('dialog', { name: 'Go Live?' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Go Live for 1 credit' }))
    expect(await screen.findByText('Your RigPage is now live! 🎉')).toBeInTheDocument()
    expect(saves(calls.calls)[0]).toMatchObject({ rigpageEnabled: true, rigpageSlug: 'Pixel_Pete', rigpageSetupId: 11 })
    expect(screen.queryByRole('button', { name: 'Go Live' })).not.toBeInTheDocument()
    expect(screen.getByRole('switch', { name: 'Public page' })).toBeChecked()
    expect(screen.getByRole('link', { name: 'View live page' })).toHaveAttribute('href', '/rig/Pixel_Pete')
    expect(screen.getByLabelText('Page URL')).toBeEnabled()
  })

  it('treats switching a never-published page public as Go Live', async () => {
    server(sampleEditor())
    renderEditor()
    await userEvent.click(await screen.findByRole('switch', { name: 'Public page' }))
    expect(await screen.findByRole('dialog', { name: 'Go Live?' })).toBeInTheDocument()
  })

  it('shows a taken slug on the slug field', async () => {
    server(sampleEditor({ saved: true, rigpageEnabled: true, everPublished: true }), () => ({ status: 409, body: { error: 'This URL is already taken. Please choose another slug.', code: 'conflict' } }))
    renderEditor()
    const slug = await screen.findByLabelText('Page URL')
    await userEvent.clear(slug)
    await userEvent.type(slug, 'taken_name')
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }))
    expect(await screen.findByText('Failed to save: This URL is already taken. Please choose another slug.')).toBeInTheDocument()
    expect(slug).toHaveAttribute('aria-invalid', 'true')
    expect(slug).toHaveAccessibleDescription(expect.stringMatching(/^This URL is already taken. Please choose another slug./))
  })

  it('checks the slug before sending', async () => {
    const calls = server(sampleEditor({ saved: true, rigpageEnabled: true, everPublished: true }))
    renderEditor()
    const slug = await screen.findByLabelText('Page URL')
    await userEvent.clear(slug)
    await userEvent.type(slug, 'ab')
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }))
    expect(await screen.findByText('Failed to save: Page URL: URL must be at least 3 characters.')).toBeInTheDocument()
    expect(slug).toHaveAccessibleDescription(expect.stringMatching(/^URL must be at least 3 characters./))
    expect(saves(calls.calls)).toHaveLength(0)
  })

  it('puts the server\'s field issues on their fields', async () => {
    server(sampleEditor({ saved: true, links: sampleLinks(2) }), () => ({
      status: 400,
      body: { error: 'Please upload this image from the editor.', code: 'validation_failed', issues: [{ path: 'links.1.url', message: 'Please enter a valid URL.' }] },
    }))
    renderEditor()
    await userEvent.click(await screen.findByRole('button', { name: 'Save Changes' }))
    expect(await screen.findByText('Failed to save: Link 2 URL: Please enter a valid URL.')).toBeInTheDocument()
    expect(screen.getByLabelText('URL of link 2')).toHaveAccessibleDescription('Please enter a valid URL.')
    expect(screen.getByLabelText('URL of link 1')).not.toHaveAttribute('aria-invalid')
  })

  it('saves changes without a charge, trimmed', async () => {
    const calls = server(sampleEditor({ saved: true }), (body) => saved(body))
    renderEditor()
    await userEvent.type(await screen.findByLabelText('Tagline'), '  Streamer  ')
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }))
    expect(await screen.findByText('Changes saved!')).toBeInTheDocument()
    expect(saves(calls.calls)[0]).toMatchObject({ rigpageTagline: 'Streamer', rigpageBio: null, rigpageEnabled: false })
    expect(screen.getByLabelText('Header credits')).toHaveTextContent('3')
  })

  it('shows what the server saved once saved', async () => {
    server(sampleEditor({ saved: true }), (body) => saved({ ...body, rigpageTagline: 'Server says' }))
    renderEditor()
    const tagline = await screen.findByLabelText('Tagline')
    await userEvent.type(tagline, '  Streamer  ')
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }))
    expect(await screen.findByText('Changes saved!')).toBeInTheDocument()
    expect(screen.getByLabelText('Tagline')).toHaveValue('Server says')
    expect(screen.getByText('11/100')).toBeInTheDocument()
  })

  it('shows the page address, its QR code and the stats once saved with a slug', async () => {
    server(sampleEditor({ saved: true, rigpageEnabled: true, everPublished: true }))
    renderEditor()
    expect(await screen.findByRole('img', { name: 'QR code for http://localhost/rig/Pixel_Pete' })).toHaveAttribute('src', '/_api/rigpage/qr?slug=Pixel_Pete')
    expect(screen.getByRole('button', { name: 'Copy link' })).toBeInTheDocument()
    expect(await screen.findByTestId('stat-views')).toHaveTextContent('12')
    expect(screen.getByTestId('stat-clicks')).toHaveTextContent('3')
    expect(screen.getByTestId('stat-ctr')).toHaveTextContent('25.0%')
    expect(screen.getByTestId('stat-top-link')).toHaveTextContent('Link 1 (2 clicks)')
  })

  it('warns before a live page\'s URL changes, and not for a case-only change', async () => {
    server(sampleEditor({ saved: true, rigpageEnabled: true, everPublished: true }))
    renderEditor()
    const slug = await screen.findByLabelText('Page URL')
    expect(screen.queryByTestId('slug-warning')).not.toBeInTheDocument()
    await userEvent.clear(slug)
    await userEvent.type(slug, 'pixel_pete')
    expect(screen.queryByTestId('slug-warning')).not.toBeInTheDocument()
    await userEvent.type(slug, '2')
    expect(screen.getByTestId('slug-warning')).toHaveTextContent('For 90 days, http://localhost/rig/Pixel_Pete leads to the new address')
  })

  it('adds https:// to a typed address, marks a bad one as it is typed, and previews only what passes', async () => {
    const { calls } = server(sampleEditor({ saved: true, links: sampleLinks(2) }))
    renderEditor()
    const url = await screen.findByLabelText('URL of link 2')
    const previews = () => calls.filter((c) => c.path === '/_api/rigpage/preview')
    await waitFor(() => expect(previews().length).toBe(1))
    await userEvent.clear(url)
    await userEvent.type(url, 'not a url')
    expect(screen.getByText('Please enter a valid URL.')).toBeInTheDocument()
    expect(await screen.findByText('The preview shows your last valid changes.')).toBeInTheDocument()
    await new Promise((settle) => setTimeout(settle, PREVIEW_DEBOUNCE_MS + 100))
    expect(previews()).toHaveLength(1)
    await userEvent.clear(url)
    await userEvent.type(url, 'instagram.com/pixel')
    await userEvent.tab()
    expect(url).toHaveValue('https://instagram.com/pixel')
    expect(screen.queryByText('Please enter a valid URL.')).not.toBeInTheDocument()
    await waitFor(() => expect(previews().length).toBe(2))
    expect((previews()[1]?.body as ConfigRequest).links?.[1]?.url).toBe('https://instagram.com/pixel')
  })

  it('marks the links the daily check found dead', async () => {
    const links = sampleLinks(2)
    server(sampleEditor({ saved: true, links, deadLinkIds: [links[1]?.id ?? -1] }))
    renderEditor()
    const rows = await screen.findAllByTestId('link-row')
    expect(within(rows[0] as HTMLElement).queryByText('Not working')).not.toBeInTheDocument()
    expect(within(rows[1] as HTMLElement).getByText('Not working')).toBeInTheDocument()
    expect(within(rows[1] as HTMLElement).getByRole('note')).toHaveTextContent('Our daily check could not open this link twice in a row. Fix its address or remove it.')
  })

  it('keeps the rows across a save and takes the ids the server gave', async () => {
    const calls = server(sampleEditor({ links: sampleLinks(5) }), (body) => saved(body, { paidLinkBatches: 1, credits: 2 }, { credits: 1, publish: false, linkBatches: 1 }))
    renderEditor()
    await newLinkForm()
    const rows = screen.getAllByTestId('link-row')
    await addLink('Sixth', 'https://six.example.com')
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Add Link for 1 credit' }))
    expect(await screen.findByText('Link added! 1 credit deducted.')).toBeInTheDocument()
    expect(screen.getAllByTestId('link-row').slice(0, 5)).toEqual(rows)
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }))
    expect(await screen.findByText('Changes saved!')).toBeInTheDocument()
    expect(saves(calls.calls)[1]?.links?.[5]).toMatchObject({ id: 505, label: 'Sixth' })
  })

  it('clears a server error once its field is edited, and keeps the others', async () => {
    server(sampleEditor({ saved: true, links: sampleLinks(2) }), () => ({
      status: 400,
      body: {
        error: 'Please enter a valid URL.',
        code: 'validation_failed',
        issues: [{ path: 'links.0.url', message: 'Please enter a valid URL.' }, { path: 'links.1.url', message: 'Please enter a valid URL.' }],
      },
    }))
    renderEditor()
    await userEvent.click(await screen.findByRole('button', { name: 'Save Changes' }))
    expect(await screen.findByText('Failed to save: Link 1 URL: Please enter a valid URL.')).toBeInTheDocument()
    const first = screen.getByLabelText('URL of link 1')
    expect(first).toHaveAttribute('aria-invalid', 'true')
    await userEvent.type(first, 'x')
    await waitFor(() => expect(first).not.toHaveAttribute('aria-invalid'))
    expect(screen.getByLabelText('URL of link 2')).toHaveAccessibleDescription('Please enter a valid URL.')
  })

  it('says what going live needs, on the fields, until they are filled', async () => {
    const calls = server(sampleEditor({ rigpageSlug: null, rigpageSetupId: null }))
    renderEditor()
    await userEvent.click(await screen.findByRole('switch', { name: 'Public page' }))
    expect(await screen.findByText(GO_LIVE_NEEDS)).toBeInTheDocument()
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(screen.getByLabelText('Page URL')).toHaveAccessibleDescription(expect.stringMatching(/^URL must be at least 3 characters./))
    expect(screen.getByText('Please choose one of your setups.')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('radio', { name: /Score 7\.5/ }))
    await waitFor(() => expect(screen.queryByText('Please choose one of your setups.')).not.toBeInTheDocument())
    expect(saves(calls.calls)).toHaveLength(0)
  })

  it('checks the whole page before asking for a paid link', async () => {
    const links = sampleLinks(5).map((link, i) => (i === 1 ? { ...link, url: 'ftp://example.com' } : link))
    server(sampleEditor({ saved: true, links }))
    renderEditor()
    await newLinkForm()
    await addLink('Sixth', 'https://six.example.com')
    expect(await screen.findByText('Link 2 URL: Please enter a valid URL.')).toBeInTheDocument()
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(screen.getByLabelText('URL of link 2')).toHaveAttribute('aria-invalid', 'true')
    expect((await newLinkForm()).getByLabelText('New link label')).toHaveValue('Sixth')
  })

  it('adds https:// to a new link sent with Enter', async () => {
    server(sampleEditor())
    renderEditor()
    const form = await newLinkForm()
    await userEvent.type(form.getByLabelText('New link label'), 'Shop')
    await userEvent.type(form.getByLabelText('New link URL'), 'shop.example.com{Enter}')
    expect(await screen.findByLabelText('URL of link 1')).toHaveValue('https://shop.example.com')
    expect(form.getByLabelText('New link URL')).toHaveValue('')
  })

  it('reorders links with the keyboard', async () => {
    const calls = server(sampleEditor({ saved: true, links: sampleLinks(3) }), (body) => saved(body))
    renderEditor()
    const handle = await screen.findByRole('button', { name: 'Reorder Link 3' })
    handle.focus()
    await userEvent.keyboard('[Space]')
    await userEvent.keyboard('[ArrowUp]')
    await userEvent.keyboard('[Space]')
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }))
    await waitFor(() => expect(saves(calls.calls).length).toBeGreaterThan(0))
    // jsdom has no layout, so the keyboard sensor cannot measure: the order is kept or moved, never lost.
    const labels = saves(calls.calls)[0]?.links?.map((l) => l.label)
    expect(labels?.slice().sort()).toEqual(['Link 1', 'Link 2', 'Link 3'])
    expect(saves(calls.calls)[0]?.links?.map((l) => l.displayOrder)).toEqual([0, 1, 2])
  })
})
