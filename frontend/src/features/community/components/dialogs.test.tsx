import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Route, Routes } from 'react-router-dom'
import { toast } from '@/lib/toast'
import { mockServer, renderApp, signedIn, signedOut } from '@/test-utils'
import { sampleResult, sampleSetup, setupsPage, stubCarouselDom } from '../testFixtures'
import { CommunityPage } from './CommunityPage'
import { PublishDialog } from './PublishDialog'

// jsdom decodes no images: the browser's downscale is stood in for (the e2e test runs the real one).
vi.mock('@/lib/imageDownscale', () => ({ downscaleToJpegDataUrl: async () => 'data:image/jpeg;base64,/9j/' }))

beforeEach(() => stubCarouselDom())

afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

const analysis = (overrides: Record<string, unknown> = {}) => ({
  id: 11,
  createdAt: '2026-03-14T09:26:53Z',
  improvementSuggestions: ['Add a monitor arm'],
  inputData: 'A desk with two monitors and a mechanical keyboard',
  inputType: 'text',
  overallRating: 7.4,
  thumbnailUrl: null,
  result: sampleResult(),
  ...overrides,
})

/** A photo analysis re-rated from analysis 10, whose photo is still there. */
const rerated = (overrides: Record<string, unknown> = {}) =>
  analysis({
    inputType: 'image',
    inputData: '/media/analyses/2.jpg',
    previousAnalysisId: 10,
    result: { ...sampleResult(), progress: { previousAnalysisId: 10, previousImageUrl: '/media/analyses/1.jpg', previousThumbnailUrl: '/media/analysis_thumbs/1.jpg' } },
    ...overrides,
  })

describe('setup detail dialog', () => {
  it('shows the photos, the analysis and the report dialog', async () => {
    const success = vi.spyOn(toast, 'success')
    const server = mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/community/setups': setupsPage([sampleSetup()]),
      'POST /_api/community/report': { status: 200, body: { success: true, counted: true } },
    })
    renderApp(<CommunityPage />)
    await userEvent.click(await screen.findByRole('button', { name: 'View Neon Den' }))
    const dialog = await screen.findByRole('dialog', { name: 'Neon Den' })
    expect(within(dialog).getByText('SetupIQ Score: 8.2/10')).toBeInTheDocument()
    expect(within(dialog).getByText('Hide the cables')).toBeInTheDocument()
    expect(within(dialog).getAllByRole('img')).toHaveLength(2)
    await userEvent.click(within(dialog).getByRole('button', { name: 'Report' }))
    const report = await screen.findByRole('dialog', { name: 'Report Content' })
    const submit = within(report).getByRole('button', { name: 'Submit Report' })
    expect(submit).toBeDisabled()
    expect(within(report).getAllByRole('radio').map((r) => r.closest('label')?.textContent)).toEqual(['Illegal content', 'Hate speech', 'Copyright violation', 'Spam', 'Harassment', 'Other'])
    expect(within(report).getByRole('group', { name: 'Reason' })).toHaveClass('plain-fieldset')
    // 'Other' says nothing by itself: it needs the details before anything is sent.
    await userEvent.click(within(report).getByLabelText('Other'))
    await userEvent.click(submit)
    expect(await within(report).findByText('Please tell us what is wrong.')).toBeInTheDocument()
    expect(within(report).getByLabelText('What is wrong? (required)')).toBeInTheDocument()
    expect(server.calls.some((c) => c.path === '/_api/community/report')).toBe(false)
    await userEvent.click(within(report).getByLabelText('Spam'))
    await userEvent.type(within(report).getByLabelText('Additional details (optional)'), 'Ads')
    await userEvent.click(submit)
    await waitFor(() => expect(success).toHaveBeenCalledWith('Report submitted', { description: 'Thank you for helping keep our community safe.' }))
    expect(server.calls.find((c) => c.path === '/_api/community/report')?.body).toEqual({ setupId: 7, reason: 'spam', additionalDetails: 'Ads' })
    // Hidden for the reporter at once, as the server now hides it, without reading the feed again.
    await waitFor(() => expect(screen.queryByRole('button', { name: 'View Neon Den' })).not.toBeInTheDocument())
    expect(screen.queryByRole('dialog', { name: 'Neon Den' })).not.toBeInTheDocument()
    expect(screen.getByText('Setups you report are hidden from your feed, and there are no others here yet.')).toBeInTheDocument()
    expect(server.calls.filter((c) => c.path === '/_api/community/setups')).toHaveLength(1)
  }, 15000)

  it('keeps the report dialog open with the reason when an unverified member may not report yet', async () => {
    const error = vi.spyOn(toast, 'error')
    const success = vi.spyOn(toast, 'success')
    mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/community/setups': setupsPage([sampleSetup()]),
      'GET /_api/community/comments': { status: 200, body: { comments: [], pagination: { total: 0, limit: 50, offset: 0, hasMore: false } } },
      'POST /_api/community/report': { status: 403, body: { error: 'Please verify your email address before reporting.', code: 'forbidden' } },
    })
    renderApp(<CommunityPage />)
    await userEvent.click(await screen.findByRole('button', { name: 'View Neon Den' }))
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Neon Den' })).getByRole('button', { name: 'Report' }))
    const report = await screen.findByRole('dialog', { name: 'Report Content' })
    await userEvent.click(within(report).getByLabelText('Spam'))
    await userEvent.click(within(report).getByRole('button', { name: 'Submit Report' }))
    expect(await within(report).findByRole('alert')).toHaveTextContent('Please verify your email address before reporting.')
    expect(screen.getByRole('dialog', { name: 'Report Content' })).toBeInTheDocument()
    expect(success).not.toHaveBeenCalled()
    expect(error).not.toHaveBeenCalled()
  })

  it('labels a re-rated post\'s photos Before and After, and its card as a before and after', async () => {
    const rerate = sampleSetup({ id: 8, title: 'Tidied Den', beforeImageIndex: 1 })
    mockServer({ 'GET /_api/auth/session': signedOut, 'GET /_api/community/setups': setupsPage([rerate, sampleSetup()]) })
    renderApp(<CommunityPage />)
    const cards = await screen.findAllByTestId('setup-card')
    expect(within(cards[0]!).getByTestId('photo-label')).toHaveTextContent('Before & after')
    expect(within(cards[1]!).queryByTestId('photo-label')).not.toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'View Tidied Den' }))
    const dialog = await screen.findByRole('dialog', { name: 'Tidied Den' })
    expect(within(dialog).getAllByTestId('photo-label').map((l) => l.textContent)).toEqual(['After', 'Before'])
    expect(within(dialog).getByRole('img', { name: 'Tidied Den, photo 2, before' })).toHaveAttribute('src', '/media/b.jpg')
  })

  it('shows the uploader\'s RigPage badge on the card and in the detail only when they show it', async () => {
    const shown = sampleSetup({ id: 8, title: 'Linked Den', uploaderRigPageSlug: 'gina', uploaderShowsRigPage: true })
    mockServer({ 'GET /_api/auth/session': signedOut, 'GET /_api/community/setups': setupsPage([shown, sampleSetup()]) })
    renderApp(<CommunityPage />)
    const badges = await screen.findAllByRole('link', { name: /^RigPage of / })
    expect(badges).toHaveLength(1)
    expect(badges[0]).toHaveAttribute('href', '/rig/gina')
    await userEvent.click(screen.getByRole('button', { name: 'View Linked Den' }))
    const dialog = await screen.findByRole('dialog', { name: 'Linked Den' })
    expect(within(dialog).getByRole('link', { name: /^RigPage of / })).toHaveAttribute('href', '/rig/gina')
  })

  it('lets the owner delete after confirming', async () => {
    const success = vi.spyOn(toast, 'success')
    let answer: (() => void) | null = null
    const server = mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/community/setups': setupsPage([sampleSetup({ uploaderId: 1, createdAt: new Date().toISOString() })]),
      'POST /_api/community/setup/delete': { status: 200, body: { success: true } },
    })
    // Hold the delete back to see the pending state.
    const fetchMock = globalThis.fetch as unknown as ReturnType<typeof vi.fn>
    const original = fetchMock.getMockImplementation()!
    fetchMock.mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost')
      if (url.pathname === '/_api/community/setup/delete') await new Promise<void>((resolve) => (answer = resolve))
      return original(input, init)
    })
    renderApp(<CommunityPage />)
    await userEvent.click(await screen.findByRole('button', { name: 'View Neon Den' }))
    const dialog = await screen.findByRole('dialog', { name: 'Neon Den' })
    expect(within(dialog).queryByRole('button', { name: 'Report' })).not.toBeInTheDocument()
    expect(within(dialog).getByRole('button', { name: 'Edit' })).toBeInTheDocument()

    // Cancel keeps the setup and sends nothing.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }))
    let confirm = await screen.findByRole('dialog', { name: 'Delete Setup' })
    expect(confirm).toHaveAccessibleDescription('Are you sure you want to delete this setup? This action cannot be undone.')
    expect(within(confirm).getByRole('button', { name: 'Cancel' })).toHaveFocus()
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Delete Setup' })).not.toBeInTheDocument())
    expect(screen.getByRole('dialog', { name: 'Neon Den' })).toBeInTheDocument()
    expect(server.calls.some((c) => c.path === '/_api/community/setup/delete')).toBe(false)

    // Delete sends the request; nothing closes the dialog until the server answers.
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Neon Den' })).getByRole('button', { name: 'Delete' }))
    confirm = await screen.findByRole('dialog', { name: 'Delete Setup' })
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(answer).not.toBeNull())
    expect(within(confirm).getByRole('button', { name: 'Deleting...' })).toBeDisabled()
    expect(within(confirm).getByRole('button', { name: 'Cancel' })).toBeDisabled()
    await userEvent.keyboard('{Escape}')
    expect(screen.getByRole('dialog', { name: 'Delete Setup' })).toBeInTheDocument()
    answer!()
    await waitFor(() => expect(success).toHaveBeenCalledWith('Setup deleted successfully.'))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(server.calls.find((c) => c.path === '/_api/community/setup/delete')?.body).toEqual({ setupId: 7 })
  })

  it('asks visitors to log in to report', async () => {
    mockServer({ 'GET /_api/auth/session': signedOut, 'GET /_api/community/setups': setupsPage([sampleSetup()]) })
    renderApp(<CommunityPage />)
    await userEvent.click(await screen.findByRole('button', { name: 'View Neon Den' }))
    const dialog = await screen.findByRole('dialog', { name: 'Neon Den' })
    expect(within(dialog).getByRole('button', { name: 'Report' })).toHaveAttribute('title', 'Click to log in')
  })
})

describe('PublishDialog', () => {
  it('publishes a chosen analysis and needs a photo for a described setup', async () => {
    const success = vi.spyOn(toast, 'success')
    const server = mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/my-analyses': { status: 200, body: { analyses: [analysis()] } },
      'POST /_api/community/setup': { status: 200, body: { success: true, setupId: 3 } },
    })
    const onOpenChange = vi.fn()
    renderApp(<PublishDialog open onOpenChange={onOpenChange} />)
    const dialog = await screen.findByRole('dialog', { name: 'Publish Setup to Community' })
    expect(within(dialog).getByRole('link', { name: 'Analyze a New Setup' })).toHaveAttribute('href', '/')
    await userEvent.click(await within(dialog).findByRole('button', { name: /Choose analysis .* rated 7.4\/10/ }))
    expect(within(dialog).getByText('Photos of your setup (at least one) (0/5)')).toBeInTheDocument()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Publish to Community' }))
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Add at least one photo of this setup.')
    expect(server.calls.some((c) => c.path === '/_api/community/setup')).toBe(false)

    await userEvent.upload(within(dialog).getByTestId('photo-input'), new File(['x'], 'a.gif', { type: 'image/gif' }), { applyAccept: false })
    expect(await within(dialog).findByText('Invalid file type. Please use JPEG, PNG, or WEBP.')).toBeInTheDocument()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Change' }))
    expect(within(dialog).getByRole('button', { name: /Choose analysis/ })).toBeInTheDocument()
    expect(success).not.toHaveBeenCalled()
  })

  it('publishes a photo analysis with its own photo', async () => {
    const success = vi.spyOn(toast, 'success')
    const server = mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/my-analyses': { status: 200, body: { analyses: [analysis({ inputType: 'image', inputData: '/media/analyses/1.jpg' })] } },
      'POST /_api/community/setup': { status: 200, body: { success: true, setupId: 3 } },
    })
    const onOpenChange = vi.fn()
    renderApp(
      <Routes>
        <Route path="/" element={<PublishDialog open onOpenChange={onOpenChange} />} />
        <Route path="/community/setup/3" element={<h1>The new post</h1>} />
      </Routes>,
    )
    const dialog = await screen.findByRole('dialog', { name: 'Publish Setup to Community' })
    await userEvent.click(await within(dialog).findByRole('button', { name: /Choose analysis/ }))
    expect(within(dialog).getByText('Extra photos (your analysed photo comes first) (0/4)')).toBeInTheDocument()
    await userEvent.type(within(dialog).getByLabelText('Title (optional)'), 'My den')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Publish to Community' }))
    await waitFor(() => expect(success).toHaveBeenCalledWith('Setup uploaded successfully!', { action: { label: 'View post', onClick: expect.any(Function) } }))
    expect(server.calls.find((c) => c.path === '/_api/community/setup')?.body).toEqual({ analysisId: 11, images: [], title: 'My den', description: null })
    expect(onOpenChange).toHaveBeenCalledWith(false)
    // The toast's 'View post' opens the post just published.
    const options = success.mock.calls[0]?.[1] as unknown as { action: { onClick: () => void } }
    act(() => options.action.onClick())
    expect(await screen.findByRole('heading', { name: 'The new post' })).toBeInTheDocument()
  })

  it('offers the existing post when the analysis is already on Community', async () => {
    const error = vi.spyOn(toast, 'error')
    mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/my-analyses': { status: 200, body: { analyses: [analysis({ inputType: 'image', inputData: '/media/analyses/1.jpg' })] } },
      'POST /_api/community/setup': {
        status: 409,
        body: { error: 'You have already published this analysis to Community.', code: 'already_published' },
      },
    })
    const onOpenChange = vi.fn()
    renderApp(<PublishDialog open onOpenChange={onOpenChange} />)
    const dialog = await screen.findByRole('dialog', { name: 'Publish Setup to Community' })
    await userEvent.click(await within(dialog).findByRole('button', { name: /Choose analysis/ }))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Publish to Community' }))
    const alert = await within(dialog).findByRole('alert')
    expect(alert).toHaveTextContent('You have already published this analysis to Community.')
    expect(error).not.toHaveBeenCalled()
    const view = within(alert).getByRole('link', { name: 'View your post' })
    expect(view).toHaveAttribute('href', '/my-posts')
    await userEvent.click(view)
    expect(onOpenChange).toHaveBeenCalledWith(false)
  })

  it('starts from the given analysis when it is one of the list', async () => {
    mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/my-analyses': { status: 200, body: { analyses: [analysis(), analysis({ id: 12, overallRating: 9.1 })] } },
    })
    const { unmount } = renderApp(<PublishDialog open onOpenChange={vi.fn()} initialAnalysisId={12} />)
    let dialog = await screen.findByRole('dialog', { name: 'Publish Setup to Community' })
    expect(await within(dialog).findByTestId('selected-analysis')).toHaveTextContent('9.1/10')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Change' }))
    expect(within(dialog).getAllByRole('button', { name: /Choose analysis/ })).toHaveLength(2)
    unmount()

    // An analysis that is not the user's leaves the choice to them.
    renderApp(<PublishDialog open onOpenChange={vi.fn()} initialAnalysisId={99} />)
    dialog = await screen.findByRole('dialog', { name: 'Publish Setup to Community' })
    expect(await within(dialog).findAllByRole('button', { name: /Choose analysis/ })).toHaveLength(2)
    expect(within(dialog).queryByTestId('selected-analysis')).not.toBeInTheDocument()
  })

  it('offers the before photo of a re-rated photo analysis, ticked, with room for it among the photos', async () => {
    const server = mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/my-analyses': { status: 200, body: { analyses: [rerated()] } },
      'POST /_api/community/setup': { status: 200, body: { success: true, setupId: 3 } },
    })
    renderApp(<PublishDialog open onOpenChange={vi.fn()} />)
    const dialog = await screen.findByRole('dialog', { name: 'Publish Setup to Community' })
    await userEvent.click(await within(dialog).findByRole('button', { name: /Choose analysis/ }))
    const option = within(dialog).getByRole('checkbox', { name: /Show the before photo/ })
    expect(option).toBeChecked()
    expect(within(dialog).getByText('Extra photos (your analysed photo comes first) (0/3)')).toBeInTheDocument()
    await userEvent.click(option)
    expect(within(dialog).getByText('Extra photos (your analysed photo comes first) (0/4)')).toBeInTheDocument()
    await userEvent.click(option)
    await userEvent.click(within(dialog).getByRole('button', { name: 'Publish to Community' }))
    await waitFor(() => expect(server.calls.some((c) => c.path === '/_api/community/setup')).toBe(true))
    expect(server.calls.find((c) => c.path === '/_api/community/setup')?.body).toEqual({ analysisId: 11, images: [], title: null, description: null, withBeforePhoto: true })
  })

  it('offers no before photo for a first rating, a described setup or an earlier analysis gone', async () => {
    const gone = { ...sampleResult(), progress: { previousAnalysisId: 10, previousImageUrl: null, previousThumbnailUrl: null } }
    mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/my-analyses': {
        status: 200,
        body: {
          analyses: [
            analysis({ id: 1, overallRating: 5.1, inputType: 'image', inputData: '/media/analyses/9.jpg' }),
            rerated({ id: 2, overallRating: 6.2, inputType: 'text', inputData: 'A tidier desk' }),
            rerated({ id: 3, overallRating: 7.3, result: gone }),
          ],
        },
      },
    })
    renderApp(<PublishDialog open onOpenChange={vi.fn()} />)
    const dialog = await screen.findByRole('dialog', { name: 'Publish Setup to Community' })
    for (const rating of ['5.1', '6.2', '7.3']) {
      await userEvent.click(await within(dialog).findByRole('button', { name: new RegExp(`rated ${rating}/10`) }))
      expect(within(dialog).queryByRole('checkbox', { name: /Show the before photo/ })).not.toBeInTheDocument()
      await userEvent.click(within(dialog).getByRole('button', { name: 'Change' }))
    }
  })

  it('sends its own photo by URL, first, before the extra photos', async () => {
    const server = mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/my-analyses': { status: 200, body: { analyses: [analysis({ inputType: 'image', inputData: '/media/analyses/1.jpg' })] } },
      'POST /_api/community/setup': { status: 200, body: { success: true, setupId: 3 } },
    })
    renderApp(<PublishDialog open onOpenChange={vi.fn()} />)
    const dialog = await screen.findByRole('dialog', { name: 'Publish Setup to Community' })
    await userEvent.click(await within(dialog).findByRole('button', { name: /Choose analysis/ }))
    await userEvent.upload(within(dialog).getByTestId('photo-input'), new File(['png'], 'extra.png', { type: 'image/png' }))
    expect(await within(dialog).findByText('Extra photos (your analysed photo comes first) (1/4)')).toBeInTheDocument()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Publish to Community' }))
    await waitFor(() => expect(server.calls.some((c) => c.path === '/_api/community/setup')).toBe(true))
    const { images } = server.calls.find((c) => c.path === '/_api/community/setup')?.body as { images: string[] }
    expect(images).toHaveLength(2)
    expect(images[0]).toBe('/media/analyses/1.jpg')
    expect(images[1]).toBe('data:image/jpeg;base64,/9j/')
  })
})

describe('EditDialog', () => {
  it('removes a photo, saves and says so', async () => {
    const success = vi.spyOn(toast, 'success')
    const server = mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/community/setups': setupsPage([sampleSetup({ uploaderId: 1, createdAt: new Date().toISOString() })]),
      'POST /_api/community/setup/edit': { status: 200, body: { success: true } },
    })
    renderApp(<CommunityPage />)
    await userEvent.click(await screen.findByRole('button', { name: 'View Neon Den' }))
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Neon Den' })).getByRole('button', { name: 'Edit' }))
    const edit = await screen.findByRole('dialog', { name: 'Edit Your Setup' })
    expect(within(edit).getAllByTestId('photo-item')).toHaveLength(2)
    await userEvent.click(within(edit).getByRole('button', { name: 'Remove photo 1' }))
    await userEvent.clear(within(edit).getByLabelText('Title'))
    await userEvent.type(within(edit).getByLabelText('Title'), 'Neon Den 2')
    await userEvent.click(within(edit).getByRole('button', { name: 'Save Changes' }))
    await waitFor(() => expect(success).toHaveBeenCalledWith('Setup updated successfully.'))
    expect(server.calls.find((c) => c.path === '/_api/community/setup/edit')?.body).toEqual({
      setupId: 7,
      images: ['/media/b.jpg'],
      title: 'Neon Den 2',
      description: 'Purple everything',
    })
  })

  it('keeps the setup and warns when the edit window is over', async () => {
    const error = vi.spyOn(toast, 'error')
    mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/community/setups': setupsPage([sampleSetup({ uploaderId: 1, createdAt: new Date().toISOString() })]),
      'POST /_api/community/setup/edit': { status: 403, body: { error: 'Setups can only be edited within 1 hour of publishing.', code: 'forbidden' } },
    })
    renderApp(<CommunityPage />)
    await userEvent.click(await screen.findByRole('button', { name: 'View Neon Den' }))
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Neon Den' })).getByRole('button', { name: 'Edit' }))
    const edit = await screen.findByRole('dialog', { name: 'Edit Your Setup' })
    await userEvent.click(within(edit).getByRole('button', { name: 'Save Changes' }))
    await waitFor(() => expect(error).toHaveBeenCalledWith('Failed to update setup.', { description: 'Setups can only be edited within 1 hour of publishing.' }))
    expect(within(edit).getByRole('alert')).toHaveTextContent('Setups can only be edited within 1 hour of publishing.')
  })
})
