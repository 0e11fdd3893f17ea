// The RigPage journey in a real browser against the real binary: a member with one photo
// analysis builds a page in the editor (theme, six links of which the sixth costs a
// credit, a reorder with the keyboard), goes live for a credit, and a visitor on a phone
// opens the server-rendered page, sees the links in the new order and follows one; the
// creator's stats count the view and the click.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { accessibilityViolations, analyzePhoto, e2eSession, eventually, expectAccessible, SETUP_PHOTO_SKIP, toastsGone } from './support.mjs'

// A phone's browser: the server counts no headless or bot user agent.
const PHONE = {
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
  deviceScaleFactor: 2,
  userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
}
// The links point at a site that does not exist (example.com is reserved for examples).
const LINK_HOST = 'https://gear.example.com'

const session = e2eSession(before, after)
// The preview frame runs no script, so axe cannot enter it; the public page it shows is checked on its own.
const editorAxe = { exclude: ['iframe[title="RigPage preview"]'] }

async function json(page, path) {
  const res = await page.request.get(`${session.server.baseUrl}${path}`)
  assert.equal(res.status(), 200, path)
  return res.json()
}

async function addLink(page, label, url) {
  await page.getByLabel('New link label').fill(label)
  await page.getByLabel('New link URL').fill(url)
  await page.getByRole('button', { name: 'Add Link' }).click()
}

async function linkTitles(page) {
  return page.locator('[data-testid="link-row"] .rp-link-title').allInnerTexts()
}

describe('a RigPage', { skip: SETUP_PHOTO_SKIP }, () => {
  it('is built in the editor, goes live and counts a visitor\'s view and click', { timeout: 600_000 }, async () => {
    const { context, page } = await session.freshPage({}, { consent: true })
    const email = `creator${Date.now()}@example.com`
    const res = await page.request.post(`${session.server.baseUrl}/_api/auth/register_with_password`, {
      data: { email, password: 'creator-password-1', displayName: 'Rig Creator' },
    })
    assert.equal(res.status(), 201)
    const score = await analyzePhoto(page)

    // The header's RigPage button opens the editor.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'RigPage' }).click()
    await page.waitForURL('**/rigpage-config')
    await page.getByRole('heading', { name: 'Create Your Link in Bio', level: 1 }).waitFor()
    await eventually(() => page.getByTestId('best-score').innerText(), score)
    // The best photo analysis (here the only one) is showcased, the slug is the username.
    const editor = await json(page, '/_api/rigpage/config')
    assert.equal(editor.saved, false)
    assert.equal(editor.setups.length, 1)
    const slug = editor.rigpageSlug
    assert.ok(slug, 'a free username becomes the slug')
    await eventually(() => page.getByRole('radio', { name: new RegExp(`Score ${score.replace('.', '\\.')}`) }).isChecked(), true)
    await eventually(() => page.getByLabel('Page URL').inputValue(), slug)
    const frame = page.frameLocator('iframe[title="RigPage preview"]')
    // The member's display name, as everywhere else, with the handle beneath it.
    await frame.getByRole('heading', { name: 'Rig Creator' }).waitFor()
    await frame.getByText(`@${editor.username}`).waitFor()
    await expectAccessible(page, assert, '/rigpage-config', editorAxe)

    // A theme applies its preset.
    await page.getByRole('button', { name: 'Matrix' }).click()
    await page.getByText('Theme "Matrix" applied with preset customizations!').waitFor()
    await eventually(() => page.getByLabel('Font').inputValue(), 'mono')
    await eventually(() => page.getByRole('button', { name: 'Matrix' }).getAttribute('aria-pressed'), 'true')

    // Five links are free; the sixth asks for a credit and saves at once.
    for (let i = 1; i <= 5; i++) await addLink(page, `Gear ${i}`, `${LINK_HOST}/gear/${i}`)
    await eventually(() => page.getByTestId('link-row').count(), 5)
    await eventually(() => page.getByRole('dialog').count(), 0)
    await frame.getByRole('link', { name: /Gear 5/ }).waitFor()
    await addLink(page, 'Gear 6', `${LINK_HOST}/gear/6`)
    const linkDialog = page.getByRole('dialog', { name: 'Unlock More Links?' })
    await linkDialog.waitFor()
    await eventually(() => linkDialog.getByTestId('credit-cost').innerText(), '1 credit')
    await eventually(() => linkDialog.getByTestId('credit-balance').innerText(), '2 credits')
    await expectAccessible(page, assert, 'credit dialog', editorAxe)
    await linkDialog.getByRole('button', { name: 'Add Link for 1 credit' }).click()
    await page.getByText('Link added! 1 credit deducted.').waitFor()
    await linkDialog.waitFor({ state: 'hidden' })
    assert.equal((await json(page, '/_api/auth/session')).user.credits, 1)
    let saved = await json(page, '/_api/rigpage/config')
    assert.equal(saved.saved, true)
    assert.equal(saved.paidLinkBatches, 1)
    assert.equal(saved.rigpageTheme, 'matrix')
    assert.deepEqual(saved.links.map((l) => l.label), ['Gear 1', 'Gear 2', 'Gear 3', 'Gear 4', 'Gear 5', 'Gear 6'])

    // The keyboard moves the sixth link to the top: Space picks it up, arrows move, Space drops.
    assert.deepEqual(await linkTitles(page), ['1. Gear 1', '2. Gear 2', '3. Gear 3', '4. Gear 4', '5. Gear 5', '6. Gear 6'])
    const announced = () => page.locator('[id^="DndLiveRegion"]').textContent()
    await page.getByRole('button', { name: 'Reorder Gear 6' }).focus()
    await page.keyboard.press('Space')
    await page.waitForTimeout(300)
    for (let i = 0; i < 10 && !(await announced()).includes('position 1 of 6'); i++) {
      await page.keyboard.press('ArrowUp')
      await page.waitForTimeout(250)
    }
    await page.keyboard.press('Space')
    // eslint-disable-next-line no-undef -- runs in the page
    await page.waitForFunction(() => document.querySelector('[id^="DndLiveRegion"]')?.textContent?.includes('dropped at position 1 of 6'))
    const order = ['Gear 6', 'Gear 1', 'Gear 2', 'Gear 3', 'Gear 4', 'Gear 5']
    await eventually(() => linkTitles(page), order.map((label, i) => `${i + 1}. ${label}`), 'the order after the drop')

    // Going live costs the last credit and saves the new order.
    await page.getByRole('button', { name: 'Go Live' }).click()
    const liveDialog = page.getByRole('dialog', { name: 'Go Live?' })
    await liveDialog.waitFor()
    await eventually(() => liveDialog.getByTestId('credit-balance').innerText(), '1 credit')
    await liveDialog.getByRole('button', { name: 'Go Live for 1 credit' }).click()
    await page.getByText('Your RigPage is now live! 🎉').waitFor()
    await liveDialog.waitFor({ state: 'hidden' })
    await eventually(() => page.getByRole('button', { name: 'Go Live' }).count(), 0)
    await eventually(() => page.getByRole('switch', { name: 'Public page' }).getAttribute('aria-checked'), 'true')
    assert.equal((await json(page, '/_api/auth/session')).user.credits, 0)
    saved = await json(page, '/_api/rigpage/config')
    assert.equal(saved.rigpageEnabled, true)
    assert.equal(saved.everPublished, true)
    assert.deepEqual(saved.links.map((l) => l.label), order)
    const viewLive = page.getByRole('link', { name: 'View live page' })
    await eventually(() => viewLive.getAttribute('href'), `/rig/${slug}`)
    await eventually(() => viewLive.getAttribute('target'), '_blank')
    await page.getByRole('img', { name: `QR code for ${saved.publicUrl}` }).waitFor()
    assert.equal(await page.getByRole('img', { name: `QR code for ${saved.publicUrl}` }).evaluate((img) => img.naturalWidth > 0), true)
    await toastsGone(page)
    await expectAccessible(page, assert, '/rigpage-config live', editorAxe)

    // A visitor on a phone sees the page in the new order and follows a link.
    const visitor = await session.browser.newContext({ baseURL: session.server.baseUrl, ...PHONE })
    // A link opens in a new tab without an opener, whose first requests no route sees: the
    // requests are watched instead (and the link's site does not exist).
    const redirects = []
    visitor.on('response', (response) => {
      if (response.status() === 302) redirects.push([new URL(response.url()).pathname, response.headers().location])
    })
    const phone = await visitor.newPage()
    const publicPage = await phone.goto(`/rig/${slug}`)
    assert.equal(publicPage.status(), 200)
    assert.equal(await phone.title(), `${editor.username}'s RigPage`)
    const links = phone.locator('ul.links a')
    assert.deepEqual((await links.locator('.label').allInnerTexts()).map((t) => t.trim()), order)
    const publicViolations = await accessibilityViolations(phone)
    if (publicViolations.length) console.log(`axe on /rig/${slug} (server renderer):\n  ${publicViolations.join('\n  ')}`)
    const first = links.first()
    const go = await first.getAttribute('href')
    assert.match(go, new RegExp(`^/rig/${slug}/go/\\d+$`))
    await eventually(() => first.getAttribute('target'), '_blank')
    const popup = visitor.waitForEvent('page')
    await first.click()
    await (await popup).waitForLoadState('domcontentloaded').catch(() => undefined)
    await phone.waitForTimeout(200)
    assert.deepEqual(redirects, [[go, `${LINK_HOST}/gear/6`]])
    await visitor.close()

    // The creator's stats: one view and one click, on the top link.
    const stats = await json(page, '/_api/rigpage/stats')
    assert.equal(stats.clicks, 1)
    assert.ok(stats.views >= 1, `views: ${stats.views}`)
    assert.equal(stats.topLink?.label, 'Gear 6')
    await page.reload()
    await page.getByTestId('stat-clicks').waitFor()
    await eventually(() => page.getByTestId('stat-clicks').innerText(), '1')
    assert.ok(Number(await page.getByTestId('stat-views').innerText()) >= 1)
    await eventually(() => page.getByTestId('stat-top-link').innerText(), /^Gear 6 \(1 click\)$/)

    // A new URL: the editor warns, and the old address (a printed QR code) leads to the new one.
    const renamed = `${slug}x`
    await page.getByLabel('Page URL').fill(renamed)
    await page.getByTestId('slug-warning').waitFor()
    await page.getByRole('button', { name: 'Save Changes' }).click()
    await page.getByRole('link', { name: 'View live page' }).and(page.locator(`[href="/rig/${renamed}"]`)).waitFor()
    const scanner = await session.browser.newContext({ baseURL: session.server.baseUrl, ...PHONE })
    const scanned = await scanner.newPage()
    const answer = await scanned.goto(`/rig/${slug}`)
    assert.equal(answer.status(), 200)
    assert.equal(new URL(scanned.url()).pathname, `/rig/${renamed}`)
    const hop = answer.request().redirectedFrom()
    assert.equal((await hop?.response())?.status(), 301, 'a permanent redirect')
    await scanner.close()

    // On a phone the editor fits the screen, and the sticky bar leads down to the preview.
    await page.setViewportSize({ width: 390, height: 844 })
    await page.reload()
    await page.getByLabel('Page URL').waitFor()
    // eslint-disable-next-line no-undef -- runs in the page
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
    assert.equal(overflow, 0, 'no horizontal overflow at 390 px')
    await page.getByRole('link', { name: 'Preview ↓' }).click()
    await page.waitForFunction(() => {
      // eslint-disable-next-line no-undef -- runs in the page
      const top = document.querySelector('iframe[title="RigPage preview"]')?.getBoundingClientRect().top
      // eslint-disable-next-line no-undef -- runs in the page
      return top !== undefined && top >= 0 && top < window.innerHeight
    })

    assert.deepEqual(session.problems, [])
    await context.close()
  })

  it('asks visitors of the editor to sign in, and closing the dialog goes home', async () => {
    const { context, page } = await session.freshPage({}, { consent: true })
    await page.goto('/rigpage-config')
    const auth = page.getByRole('dialog', { name: 'Welcome to SetupIQ' })
    await auth.getByRole('tab', { name: 'Log In', selected: true }).waitFor()
    await page.keyboard.press('Escape')
    await page.waitForURL((url) => url.pathname === '/')
    await page.getByRole('heading', { name: 'Get Your Gaming Setup Rated by AI' }).waitFor()
    // The header's RigPage button sends visitors to the register tab.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'RigPage' }).click()
    await auth.getByRole('tab', { name: 'Register', selected: true }).waitFor()
    await context.close()
  })
})
