import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Toaster } from 'sonner'
import { mockServer, renderApp, signedIn } from '@/test-utils'
import { sampleAccount, sampleHealth, sampleProblem, sampleReported, sampleSummary } from '../testFixtures'
import { AdminPage } from './AdminPage'

afterEach(() => vi.unstubAllGlobals())

type Reply = { status: number; body: unknown }
type Replies = Parameters<typeof mockServer>[0]

const ok = (body: unknown): Reply => ({ status: 200, body })

function adminServer(overrides: Replies = {}) {
  return mockServer({
    'GET /_api/auth/session': signedIn({ role: 'admin' }),
    'GET /_api/analytics/summary': ok(sampleSummary()),
    'GET /_api/analytics/top-products': ok([{ id: 1, name: 'Desk Mat XL', category: 'Accessories', clickCount: 40, estimatedRevenue: 12.5, estimatedRevenueCents: 1250 }]),
    'GET /_api/analytics/category-performance': ok([
      { category: 'Monitor', clickCount: 90, uniqueSessions: 50, estimatedRevenue: 300, estimatedRevenueCents: 30000 },
      { category: 'Mouse', clickCount: 20, uniqueSessions: 15, estimatedRevenue: 12, estimatedRevenueCents: 1200 },
    ]),
    'GET /_api/analytics/daily-clicks': ok([{ day: '2026-03-13', clicks: 4 }, { day: '2026-03-14', clicks: 9 }]),
    'GET /_api/admin/link-health-report': ok(sampleHealth()),
    'GET /_api/admin/reports': ok([sampleReported()]),
    'GET /_api/admin/comment-reports': ok([]),
    'GET /_api/admin/log': ok({ entries: [], total: 0 }),
    'GET /_api/admin/contact-messages': ok({ messages: [], total: 0, limit: 20, offset: 0, hasMore: false }),
    ...overrides,
  })
}

function renderAdmin() {
  return renderApp(
    <>
      <AdminPage />
      <Toaster />
    </>,
    { route: '/admin' },
  )
}

describe('AdminPage', () => {
  it('shows the stat cards with formatted values', async () => {
    adminServer()
    renderAdmin()
    const stats = await screen.findByTestId('admin-stats')
    expect(await within(stats).findByText('12,345')).toBeInTheDocument()
    expect(within(stats).getByText('$1,234.50')).toBeInTheDocument()
    expect(within(stats).getByText('321')).toBeInTheDocument()
    expect(await within(stats).findByText('57')).toBeInTheDocument()
    for (const label of ['Total Clicks', 'Estimated Revenue', 'Active Affiliate Links', 'Unique Users']) expect(within(stats).getByText(label)).toBeInTheDocument()
    expect(screen.getByRole('heading', { level: 1, name: 'Admin Panel' })).toBeInTheDocument()
    for (const name of ['Clicks Over Time', 'Top Performing Products', 'Category Performance', 'Link Health Management', 'Moderation Queue', 'Users', 'Admin Log', 'Brand Assets']) {
      expect(screen.getByRole('heading', { level: 2, name })).toBeInTheDocument()
    }
  })

  it('reads the analytics again for another period', async () => {
    const { calls } = adminServer()
    renderAdmin()
    await screen.findByText('12,345')
    await userEvent.selectOptions(screen.getByLabelText('Period'), '7d')
    await waitFor(() => expect(calls.some((c) => c.path === '/_api/analytics/summary' && c.search === '?period=7d')).toBe(true))
    expect(calls.some((c) => c.path === '/_api/analytics/daily-clicks' && c.search === '?period=7d')).toBe(true)
  })

  it('lists the top products and gives the chart a text alternative', async () => {
    adminServer()
    renderAdmin()
    const table = await screen.findByRole('table', { name: 'Top Performing Products' })
    expect(within(table).getByRole('rowheader', { name: 'Desk Mat XL' })).toBeInTheDocument()
    expect(within(table).getByText('$12.50')).toBeInTheDocument()
    expect(await screen.findByText('13 clicks over 2 days; busiest day Mar 14 with 9 clicks.')).toBeInTheDocument()
    expect(screen.getByRole('table', { name: 'Clicks per day' })).toBeInTheDocument()
  })

  it('shows the table fallbacks and the load toast', async () => {
    adminServer({
      'GET /_api/analytics/top-products': { status: 500, body: { error: 'Database unavailable.', code: 'internal' } },
      'GET /_api/analytics/category-performance': ok([]),
    })
    renderAdmin()
    expect(await screen.findByText('Failed to load products.', undefined, { timeout: 3000 })).toBeInTheDocument()
    expect(await screen.findByText('Could not load top products.')).toBeInTheDocument()
    expect(screen.getByText('Database unavailable.')).toBeInTheDocument()
    expect(await screen.findByText('No category data available.')).toBeInTheDocument()
  })

  it('sorts the categories on the server when a header is clicked', async () => {
    const { calls } = adminServer()
    renderAdmin()
    const table = await screen.findByRole('table', { name: 'Category Performance' })
    expect(within(table).getByRole('columnheader', { name: /Clicks/ })).toHaveAttribute('aria-sort', 'descending')
    await userEvent.click(within(table).getByRole('button', { name: /Est\. Revenue/ }))
    await waitFor(() => expect(calls.some((c) => c.path === '/_api/analytics/category-performance' && c.search?.includes('sortBy=estimatedRevenue'))).toBe(true))
    const header = within(await screen.findByRole('table', { name: 'Category Performance' })).getByRole('columnheader', { name: /Est\. Revenue/ })
    expect(header).toHaveAttribute('aria-sort', 'descending')
    expect(within(table).getByRole('columnheader', { name: /Clicks/ })).not.toHaveAttribute('aria-sort')
  })
})

describe('Link Health Management', () => {
  it('verifies all links: Verifying... then the report and the success toast', async () => {
    let finish: (reply: Reply) => void = () => {}
    const { calls } = adminServer({
      'POST /_api/admin/verify-links': () => new Promise<Reply>((resolve) => (finish = resolve)),
    })
    renderAdmin()
    await screen.findByText('Cable Tray Basic')
    expect(screen.getByText('Dead (404)')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Verify All Links' }))
    expect(screen.getByRole('button', { name: 'Verifying...' })).toBeDisabled()
    expect(await screen.findByText('Starting link verification process...')).toBeInTheDocument()
    const before = calls.filter((c) => c.path === '/_api/admin/link-health-report').length
    finish(ok({ runId: 5, totalChecked: 60, healthy: 55, dead: 3, warnings: 1, unknown: 1, errors: 0, timeouts: 0, deadLinks: [{ productId: 7, url: 'https://a.example/x', statusCode: 404, verdict: 'dead' }] }))
    expect(await screen.findByText('Link verification completed!')).toBeInTheDocument()
    expect(screen.getByText('3 dead links found out of 60 checked.')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Verify All Links' })).toBeEnabled()
    expect(calls.find((c) => c.path === '/_api/admin/verify-links')?.body).toEqual({})
    await waitFor(() => expect(calls.filter((c) => c.path === '/_api/admin/link-health-report').length).toBeGreaterThan(before))
  })

  it("shows the server's message when a run is already under way (409)", async () => {
    adminServer({ 'POST /_api/admin/verify-links': { status: 409, body: { error: 'A link verification is already running.', code: 'conflict' } } })
    renderAdmin()
    await userEvent.click(await screen.findByRole('button', { name: 'Verify All Links' }))
    expect(await screen.findByText('Link verification failed.')).toBeInTheDocument()
    expect(screen.getByText('A link verification is already running.')).toBeInTheDocument()
    // SWR ends a mutation in a transition: the button comes back a render after the toast.
    expect(await screen.findByRole('button', { name: 'Verify All Links' })).toBeEnabled()
  })

  it('replaces a link after checking the address', async () => {
    const { calls } = adminServer({ 'POST /_api/admin/products/replace-link': ok({ success: true }) })
    renderAdmin()
    await userEvent.click(await screen.findByRole('button', { name: 'Replace link for Cable Tray Basic' }))
    const dialog = await screen.findByRole('dialog', { name: 'Replace link' })
    const field = within(dialog).getByLabelText('New URL')
    await userEvent.clear(field)
    await userEvent.type(field, 'ftp://nope')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Replace link' }))
    expect(await within(dialog).findByText('Please enter a valid URL.')).toBeInTheDocument()
    await userEvent.clear(field)
    await userEvent.type(field, 'https://www.amazon.com/dp/NEW?tag=setupiq-20')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Replace link' }))
    await waitFor(() => expect(calls.find((c) => c.path === '/_api/admin/products/replace-link')?.body).toEqual({ productId: 7, url: 'https://www.amazon.com/dp/NEW?tag=setupiq-20' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
  })

  it('deactivates a product', async () => {
    const { calls } = adminServer({ 'POST /_api/admin/products/set-active': ok({ success: true }) })
    renderAdmin()
    await userEvent.click(await screen.findByRole('button', { name: 'Deactivate Cable Tray Basic' }))
    await waitFor(() => expect(calls.find((c) => c.path === '/_api/admin/products/set-active')?.body).toEqual({ productId: 7, active: false }))
    expect(await screen.findByText('Product deactivated.')).toBeInTheDocument()
  })
})

describe('a server that cannot reach the network', () => {
  it('shows why a run failed and that nothing changed', async () => {
    const message = 'The link check could not reach the network: 68 of 68 links could not be checked (DNS lookup of www.amazon.com failed). No product was changed; try again when the server is online.'
    let failed = false
    adminServer({
      'POST /_api/admin/verify-links': () => {
        failed = true
        return { status: 503, body: { error: message, code: 'unavailable' } }
      },
      'GET /_api/admin/link-health-report': () =>
        ok(failed
          ? sampleHealth({ problems: [], lastRun: { id: 9, status: 'failed', startedAt: '2026-03-14T09:26:53Z', finishedAt: '2026-03-14T09:27:03Z', totalChecked: 68, healthy: 0, dead: 0, warnings: 0, unknown: 0, errors: 0, timeouts: 0, unreachable: 68, failureReason: message } })
          : sampleHealth()),
    })
    renderAdmin()
    await userEvent.click(await screen.findByRole('button', { name: 'Verify All Links' }))
    const note = await screen.findByRole('note')
    expect(note).toHaveTextContent('This server could not reach the internet, so the links were not checked.')
    expect(note).toHaveTextContent(message)
    expect(screen.getAllByText('Link verification failed.').length).toBeGreaterThan(0)
    // Nothing was checked: no claim that the links are healthy.
    expect(await screen.findByText('No link is known to be broken, but the last check failed: run it again to know.')).toBeInTheDocument()
    expect(screen.queryByText('All links look healthy.')).not.toBeInTheDocument()
  })

  it('counts the links it could not check apart from the dead ones', async () => {
    adminServer({ 'POST /_api/admin/verify-links': ok({ runId: 5, totalChecked: 60, healthy: 55, dead: 1, warnings: 0, unknown: 0, errors: 0, timeouts: 0, unreachable: 4, deadLinks: [] }) })
    renderAdmin()
    await userEvent.click(await screen.findByRole('button', { name: 'Verify All Links' }))
    expect(await screen.findByText('1 dead link found out of 60 checked. 4 could not be checked from this server.')).toBeInTheDocument()
    expect(screen.getByText('Could not check: 4')).toBeInTheDocument()
  })

  it('groups the broken links of a run by kind, each folded away', async () => {
    const deadLinks = [
      { productId: 7, url: 'https://a.example/7', statusCode: 404, verdict: 'dead' },
      { productId: 8, url: 'https://a.example/8', statusCode: 404, verdict: 'dead' },
      { productId: 9, url: 'https://a.example/9', statusCode: null, verdict: 'timeout' },
    ]
    adminServer({ 'POST /_api/admin/verify-links': ok({ runId: 5, totalChecked: 60, healthy: 57, dead: 2, warnings: 0, unknown: 0, errors: 0, timeouts: 1, unreachable: 0, deadLinks }) })
    renderAdmin()
    await userEvent.click(await screen.findByRole('button', { name: 'Verify All Links' }))
    const report = await screen.findByRole('status', { name: 'Verification report' })
    const groups = report.querySelectorAll('details')
    expect([...groups].map((g) => g.querySelector('summary')?.textContent)).toEqual(['Dead (404) 2 links', 'Timeout 1 link'])
    expect([...groups].every((g) => !g.open)).toBe(true)
    expect(within(report).getByText('https://a.example/8')).not.toBeVisible()
    await userEvent.click(within(report).getByText('Dead (404)'))
    expect(within(report).getByText('https://a.example/8')).toBeVisible()
    expect(within(report).queryByText(/could not be checked/)).not.toBeInTheDocument()
  })

  it('switches every dead link off at once, once confirmed', async () => {
    const problems = [7, 8, 9].map((productId) => sampleProblem({ productId, name: `Product ${productId}`, isActive: productId !== 9 }))
    const { calls } = adminServer({
      'GET /_api/admin/link-health-report': ok(sampleHealth({ problems: [...problems, sampleProblem({ productId: 10, name: 'Moved', health: 'warning', verdict: 'home_page_redirect' })] })),
      'POST /_api/admin/products/deactivate': ok({ deactivated: 2 }),
    })
    renderAdmin()
    await userEvent.click(await screen.findByRole('button', { name: 'Deactivate all 2 dead links' }))
    const dialog = await screen.findByRole('dialog', { name: 'Deactivate 2 products with a dead link?' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(calls.some((c) => c.path === '/_api/admin/products/deactivate')).toBe(false)
    await userEvent.click(screen.getByRole('button', { name: 'Deactivate all 2 dead links' }))
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Deactivate' }))
    await waitFor(() => expect(calls.find((c) => c.path === '/_api/admin/products/deactivate')?.body).toEqual({ productIds: [7, 8] }))
    expect(await screen.findByText('2 products deactivated.')).toBeInTheDocument()
  })

  it('switches every inactive product back on at once', async () => {
    const problems = [7, 8, 9].map((productId) => sampleProblem({ productId, name: `Product ${productId}`, isActive: productId === 9, consecutiveFailures: 2 }))
    const { calls } = adminServer({
      'GET /_api/admin/link-health-report': ok(sampleHealth({ problems })),
      'POST /_api/admin/products/activate': ok({ activated: 2 }),
    })
    renderAdmin()
    await userEvent.click(await screen.findByRole('button', { name: 'Activate all 2 inactive products' }))
    await waitFor(() => expect(calls.find((c) => c.path === '/_api/admin/products/activate')?.body).toEqual({ productIds: [7, 8] }))
    expect(await screen.findByText('2 products activated.')).toBeInTheDocument()
  })
})

describe('Moderation Queue', () => {
  it('shows the reports and dismisses them', async () => {
    const { calls } = adminServer({ 'POST /_api/admin/reports/decide': ok({ success: true }) })
    renderAdmin()
    const item = (await screen.findByRole('heading', { name: 'Neon Den' })).closest('li') as HTMLElement
    expect(within(item).getByText('Hidden')).toBeInTheDocument()
    expect(within(item).getByText(/@Gamer_Gina/)).toBeInTheDocument()
    expect(within(item).getByText('Spam × 2')).toBeInTheDocument()
    expect(within(item).getByText('@Rita')).toBeInTheDocument()
    expect(within(item).getByText('(rita@example.com)')).toBeInTheDocument()
    expect(within(item).getByText('Advertising a shop')).toBeInTheDocument()
    await userEvent.click(within(item).getByRole('button', { name: 'Dismiss reports for Neon Den' }))
    await waitFor(() => expect(calls.find((c) => c.path === '/_api/admin/reports/decide')?.body).toEqual({ setupId: 31, decision: 'dismiss' }))
    expect(await screen.findByText('Reports dismissed.')).toBeInTheDocument()
  })

  it('asks before removing a setup and sends the note', async () => {
    const { calls } = adminServer({ 'POST /_api/admin/reports/decide': ok({ success: true }) })
    renderAdmin()
    await screen.findByRole('heading', { name: 'Neon Den' })
    await userEvent.type(screen.getByLabelText('Note for the admin log (optional)'), 'Spam shop')
    await userEvent.click(screen.getByRole('button', { name: 'Remove setup Neon Den' }))
    const dialog = await screen.findByRole('dialog', { name: 'Remove this setup?' })
    expect(calls.some((c) => c.path === '/_api/admin/reports/decide')).toBe(false)
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove setup' }))
    await waitFor(() => expect(calls.find((c) => c.path === '/_api/admin/reports/decide')?.body).toEqual({ setupId: 31, decision: 'remove', note: 'Spam shop' }))
  })

  it('names the harassment and other reasons, with what the reporter wrote', async () => {
    adminServer({
      'GET /_api/admin/reports': ok([
        sampleReported({
          reasons: [{ reason: 'harassment', count: 1 }, { reason: 'other', count: 1 }],
          reports: [
            { reporterId: 3, reporterUsername: 'Rita', reporterEmail: 'rita@example.com', reason: 'harassment', details: null, createdAt: '2026-03-12T08:00:00Z' },
            { reporterId: 4, reporterUsername: 'Sam', reporterEmail: 'sam@example.com', reason: 'other', details: 'The photo shows my flat', createdAt: '2026-03-13T08:00:00Z' },
          ],
        }),
      ]),
    })
    renderAdmin()
    const item = (await screen.findByRole('heading', { name: 'Neon Den' })).closest('li') as HTMLElement
    expect(within(item).getByText('Harassment × 1')).toBeInTheDocument()
    expect(within(item).getByText('Other × 1')).toBeInTheDocument()
    expect(within(item).getByText(/· Other ·/)).toBeInTheDocument()
    expect(within(item).getByText('The photo shows my flat')).toBeInTheDocument()
  })

  it('says when there are no open reports', async () => {
    adminServer({ 'GET /_api/admin/reports': ok([]) })
    renderAdmin()
    expect(await screen.findByText('No open reports.')).toBeInTheDocument()
    expect(await screen.findByText('No reported comments.')).toBeInTheDocument()
  })

  it('shows a reported comment with its setup and removes it with a note', async () => {
    const { calls } = adminServer({
      'GET /_api/admin/reports': ok([]),
      'GET /_api/admin/comment-reports': ok([
        {
          commentId: 44,
          setupId: 31,
          authorId: 9,
          authorUsername: 'Spammy',
          body: 'Free skins at scam.example',
          writtenAt: '2026-03-14T10:00:00Z',
          reports: [{ reporterId: 3, reporterUsername: 'Rita', reporterEmail: 'rita@example.com', reason: 'spam', details: 'Scam link', createdAt: '2026-03-14T11:00:00Z' }],
        },
      ]),
      'POST /_api/admin/comment-reports/decide': ok({ success: true }),
    })
    renderAdmin()
    const item = (await screen.findByRole('heading', { name: 'Comment by @Spammy' })).closest('li') as HTMLElement
    expect(within(item).getByText('Free skins at scam.example')).toBeInTheDocument()
    expect(within(item).getByRole('link', { name: 'under setup #31' })).toHaveAttribute('href', '/community/setup/31')
    expect(within(item).getByText('Scam link')).toBeInTheDocument()
    await userEvent.type(within(item).getByLabelText('Note for the admin log (optional)'), 'Scam')
    await userEvent.click(within(item).getByRole('button', { name: 'Remove the comment by @Spammy' }))
    // One click only asks; the comment goes once confirmed.
    const confirm = await screen.findByRole('dialog', { name: 'Remove this comment?' })
    expect(confirm).toHaveTextContent('The comment by @Spammy will be deleted')
    expect(calls.some((c) => c.path === '/_api/admin/comment-reports/decide')).toBe(false)
    await userEvent.click(within(confirm).getByRole('button', { name: 'Remove comment' }))
    await waitFor(() =>
      expect(calls.find((c) => c.path === '/_api/admin/comment-reports/decide')?.body).toEqual({ commentId: 44, decision: 'remove', note: 'Scam' }),
    )
    expect(await screen.findByText('Comment removed.')).toBeInTheDocument()
  })
})

describe('Users', () => {
  const page = (users: ReturnType<typeof sampleAccount>[], total = users.length, offset = 0) => ok({ users, total, limit: 20, offset, hasMore: offset + users.length < total })

  it('lists the newest accounts at once, finds one by any part, and grants Pro once confirmed', async () => {
    const { calls } = adminServer({
      'GET /_api/admin/users': page([sampleAccount()]),
      'POST /_api/admin/users/change': ok(sampleAccount({ isPro: true })),
    })
    renderAdmin()
    expect(await screen.findByRole('button', { name: 'Grant Pro to @Gamer_Gina' })).toBeInTheDocument()
    expect(calls.some((c) => c.path === '/_api/admin/users' && c.search === undefined)).toBe(true)
    await userEvent.type(screen.getByRole('searchbox', { name: 'E-mail or username' }), 'gina')
    await userEvent.click(screen.getByRole('button', { name: 'Search' }))
    await waitFor(() => expect(calls.some((c) => c.path === '/_api/admin/users' && c.search === '?query=gina')).toBe(true))
    await userEvent.click(await screen.findByRole('button', { name: 'Grant Pro to @Gamer_Gina' }))
    const confirm = await screen.findByRole('dialog', { name: /^Grant Pro to @Gamer_Gina\?/ })
    expect(calls.some((c) => c.path === '/_api/admin/users/change')).toBe(false)
    await userEvent.click(within(confirm).getByRole('button', { name: 'Confirm' }))
    await waitFor(() => expect(calls.find((c) => c.path === '/_api/admin/users/change')?.body).toEqual({ userId: 2, change: 'grant_pro' }))
    expect(await screen.findByText('@Gamer_Gina is now Pro.')).toBeInTheDocument()
    expect(await screen.findByRole('button', { name: 'Revoke Pro from @Gamer_Gina' })).toBeInTheDocument()
  })

  it('changes nothing when a confirmation is cancelled, and pages through many accounts', async () => {
    const { calls } = adminServer({
      'GET /_api/admin/users': (_body: unknown, { search }: { search: string }) =>
        search.includes('offset=20') ? page([sampleAccount({ id: 3, username: 'Late_Lou' })], 21, 20) : page([sampleAccount()], 21),
    })
    renderAdmin()
    await userEvent.click(await screen.findByRole('button', { name: 'Make admin @Gamer_Gina' }))
    await userEvent.click(within(await screen.findByRole('dialog', { name: /^Make @Gamer_Gina an admin\?/ })).getByRole('button', { name: 'Cancel' }))
    expect(calls.some((c) => c.path === '/_api/admin/users/change')).toBe(false)
    expect(screen.getByText('1–1 of 21')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Next' }))
    expect(await screen.findByText('@Late_Lou')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled()
  })

  it('ticks accounts of the page, asks once naming the action and the count, then says what was skipped and reads the page again', async () => {
    const accounts = [
      sampleAccount(),
      sampleAccount({ id: 3, username: 'Late_Lou', email: 'lou@example.com' }),
      sampleAccount({ id: 1, username: 'Pixel_Pete', role: 'admin', emailVerified: true }),
    ]
    const { calls } = adminServer({
      'GET /_api/admin/users': page(accounts),
      'POST /_api/admin/users/bulk': ok({
        changed: 1,
        skipped: 1,
        results: [
          { userId: 2, changed: true, reason: null, message: null },
          { userId: 3, changed: false, reason: 'blocked', message: 'Could not be deleted right now (their subscription could not be ended). Please try again in a few minutes.' },
        ],
      }),
    })
    renderAdmin()
    const selectAll = await screen.findByRole('checkbox', { name: 'Select all on this page' })
    expect(screen.queryByRole('toolbar')).not.toBeInTheDocument()
    await userEvent.click(selectAll)
    const bar = screen.getByRole('toolbar', { name: 'Bulk actions on the selected accounts' })
    expect(within(bar).getByText('3 selected')).toBeInTheDocument()
    // The keyboard unticks one: focus its box and press Space.
    screen.getByRole('checkbox', { name: 'Select @Pixel_Pete' }).focus()
    await userEvent.keyboard(' ')
    expect(within(bar).getByText('2 selected')).toBeInTheDocument()
    expect(selectAll).not.toBeChecked()
    expect((selectAll as HTMLInputElement).indeterminate).toBe(true)

    await userEvent.click(within(bar).getByRole('button', { name: 'Delete' }))
    const confirm = await screen.findByRole('dialog', { name: 'Delete 2 accounts? This cannot be undone.' })
    expect(confirm).toHaveTextContent('Their analyses, posts, comments, RigPage and credits go too')
    expect(calls.some((c) => c.path === '/_api/admin/users/bulk')).toBe(false)
    const reads = calls.filter((c) => c.path === '/_api/admin/users').length
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete 2 accounts' }))
    await waitFor(() => expect(calls.find((c) => c.path === '/_api/admin/users/bulk')?.body).toEqual({ userIds: [2, 3], action: 'delete' }))

    const status = await screen.findByText('1 account deleted; 1 skipped.', { selector: '.admin-bulk-report p' })
    expect(status.closest('[role="status"]')).toHaveTextContent('@Late_Lou: Could not be deleted right now')
    await waitFor(() => expect(calls.filter((c) => c.path === '/_api/admin/users').length).toBeGreaterThan(reads))
    expect(screen.queryByRole('toolbar')).not.toBeInTheDocument()
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
  })

  it('asks about one account in the singular, changes nothing when cancelled, and starts a new page with nothing ticked', async () => {
    const { calls } = adminServer({
      'GET /_api/admin/users': (_body: unknown, { search }: { search: string }) =>
        search.includes('offset=20') ? page([sampleAccount({ id: 3, username: 'Late_Lou' })], 21, 20) : page([sampleAccount()], 21),
    })
    renderAdmin()
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select @Gamer_Gina' }))
    const bar = screen.getByRole('toolbar')
    expect(within(bar).getByText('1 selected')).toBeInTheDocument()
    await userEvent.click(within(bar).getByRole('button', { name: 'Grant Pro' }))
    const confirm = await screen.findByRole('dialog', { name: 'Grant Pro to 1 account?' })
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }))
    expect(calls.some((c) => c.path === '/_api/admin/users/bulk')).toBe(false)
    expect(within(bar).getByText('1 selected')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Next' }))
    expect(await screen.findByText('@Late_Lou')).toBeInTheDocument()
    expect(screen.queryByRole('toolbar')).not.toBeInTheDocument()
    expect(screen.getByRole('checkbox', { name: 'Select @Late_Lou' })).not.toBeChecked()
  })

  it("shows the server's refusal to take one's own admin role", async () => {
    adminServer({
      'GET /_api/admin/users': page([sampleAccount({ id: 1, username: 'Pixel_Pete', role: 'admin' })]),
      'POST /_api/admin/users/change': { status: 403, body: { error: 'You cannot remove your own admin role.', code: 'forbidden' } },
    })
    renderAdmin()
    await userEvent.click(await screen.findByRole('button', { name: 'Remove admin from @Pixel_Pete' }))
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm' }))
    expect(await screen.findByText('You cannot remove your own admin role.')).toBeInTheDocument()
  })
})

describe('Admin Log', () => {
  it('pages through the log, 20 at a time', async () => {
    const entry = (id: number) => ({ id, adminName: 'Pixel_Pete', action: 'grant_pro', targetType: 'user', targetId: id, details: null, createdAt: '2026-03-14T09:26:53Z' })
    const { calls } = adminServer({
      'GET /_api/admin/log': (_body: unknown, { search }: { search: string }) => {
        const first = !search.includes('offset=20')
        return ok({ entries: first ? Array.from({ length: 20 }, (_, i) => entry(25 - i)) : Array.from({ length: 5 }, (_, i) => entry(5 - i)), total: 25 })
      },
    })
    renderAdmin()
    const table = await screen.findByRole('table', { name: 'Admin actions, newest first' })
    expect(within(table).getAllByText('Granted Pro')).toHaveLength(20)
    expect(within(table).getByText('User #25')).toBeInTheDocument()
    expect(screen.getByText('Showing 20 of 25')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }))
    await waitFor(() => expect(calls.some((c) => c.path === '/_api/admin/log' && c.search === '?limit=20&offset=20')).toBe(true))
    expect(await within(table).findByText('User #1')).toBeInTheDocument()
    expect(screen.getByText('Showing 25 of 25')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument()
  })
})

describe('Contact Messages', () => {
  const message = (id: number) => ({ id, name: `Sender ${id}`, email: `sender${id}@example.com`, message: `Message number ${id}\nsecond line`, userId: id === 21 ? 4 : null, createdAt: '2026-03-14T09:26:53Z' })

  it('shows the messages newest first with a reply link, and loads more', async () => {
    const { calls } = adminServer({
      'GET /_api/admin/contact-messages': (_body: unknown, { search }: { search: string }) => {
        const first = !search.includes('offset=20')
        const ids = first ? Array.from({ length: 20 }, (_, i) => 21 - i) : [1]
        return ok({ messages: ids.map(message), total: 21, limit: 20, offset: first ? 0 : 20, hasMore: first })
      },
    })
    renderAdmin()
    const inbox = await screen.findByRole('list', { name: 'Contact messages, newest first' })
    const items = within(inbox).getAllByRole('listitem')
    expect(items).toHaveLength(20)
    expect(within(items[0]!).getByText('Sender 21')).toBeInTheDocument()
    expect(within(items[0]!).getByText('user #4')).toBeInTheDocument()
    expect(within(items[0]!).getByRole('link', { name: 'sender21@example.com' })).toHaveAttribute('href', expect.stringMatching(/^mailto:sender21@example\.com\?subject=/))
    expect(within(items[0]!).getByText(/Message number 21/)).toHaveClass('inbox-text')
    const section = screen.getByRole('region', { name: 'Contact Messages' })
    expect(within(section).getByText('Showing 20 of 21')).toBeInTheDocument()
    await userEvent.click(within(section).getByRole('button', { name: 'Load more' }))
    await waitFor(() => expect(calls.some((c) => c.path === '/_api/admin/contact-messages' && c.search === '?limit=20&offset=20')).toBe(true))
    expect(await within(inbox).findByText('Sender 1')).toBeInTheDocument()
    expect(within(section).queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument()
  })

  it('says when nobody has written yet', async () => {
    adminServer()
    renderAdmin()
    const section = await screen.findByRole('region', { name: 'Contact Messages' })
    expect(await within(section).findByText('No messages yet.')).toBeInTheDocument()
  })
})
