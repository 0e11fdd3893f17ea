// Shop this setup (issue 59) in a real browser against the real binary: a member analyses a
// real photo and publishes it; the publish dialog offers the gear the analysis saw, the member
// names and keeps one piece with a shop link, drops nothing else in; a visitor sees the piece on
// the post's card, clicks it and lands at the shop through the counted redirect; the owner
// sees the click on My Posts. axe checks the dialog with its gear rows.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { analyzePhoto, e2eSession, eventually, expectAccessible, PERSON, SETUP_PHOTO_SKIP } from './support.mjs'

const session = e2eSession(before, after)
const SHOP = 'https://shop.example.com/lg-27gp850'

async function register(page, email, displayName) {
  const res = await page.request.post(`${session.server.baseUrl}/_api/auth/register_with_password`, {
    data: { email, password: 'gear-password-1', displayName },
  })
  assert.equal(res.status(), 201)
}

describe('shop this setup', { skip: SETUP_PHOTO_SKIP }, () => {
  it('publishes with the gear the analysis saw, a visitor shops it, the owner sees the click', { timeout: 600_000 }, async () => {
    const stamp = Date.now()
    const title = `Gear Den ${stamp}`
    const { page } = await session.freshPage({}, { consent: true })
    await register(page, `gear${stamp}@example.com`, 'Gear Owner')
    await analyzePhoto(page)

    await page.goto('/community')
    await page.getByRole('button', { name: 'Upload Your Setup' }).click()
    const publish = page.getByRole('dialog', { name: 'Publish Setup to Community' })
    await publish.getByRole('button', { name: /Choose analysis/ }).first().click()
    await publish.getByLabel('Title (optional)').fill(title)

    // What the analysis saw is offered, nothing kept until the owner says so.
    const rows = publish.getByTestId('gear-row')
    await rows.first().waitFor()
    const offered = await rows.count()
    assert.ok(offered >= 1, 'the analysis offers at least one piece of gear')
    await publish.getByText(`0 of 20 kept`).waitFor()
    const first = rows.first()
    await first.getByLabel('Name of gear 1').fill('LG 27GP850')
    await first.getByLabel('Category of gear 1').selectOption('monitor')
    await first.getByLabel('Shop link of gear 1 (optional)').fill(SHOP)
    await first.getByRole('checkbox', { name: 'Keep' }).check()
    await publish.getByText('1 of 20 kept').waitFor()
    await expectAccessible(page, assert, 'the publish dialog with its gear')
    await publish.getByRole('button', { name: 'Publish to Community' }).click()
    await page.getByText('Setup uploaded successfully!').waitFor({ timeout: 60_000 })

    // Only the kept piece is on the post.
    const api = await page.request.get(`${session.server.baseUrl}/_api/community/setups?sort=new`)
    const post = (await api.json()).setups.find((s) => s.title === title)
    assert.deepEqual(post.gear.map((g) => [g.name, g.category, g.hasLink]), [['LG 27GP850', 'monitor', true]])

    // A visitor shops it from the card: through the counted redirect, to the shop.
    {
      const { page: visitor, context } = await session.freshPage({ userAgent: PERSON }, { consent: true })
      await context.route('https://shop.example.com/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<title>Shop</title>LG 27GP850' }))
      await visitor.goto('/community')
      const card = visitor.getByTestId('setup-card').filter({ has: visitor.getByRole('heading', { name: title, exact: true }) })
      const link = card.getByRole('link', { name: 'LG 27GP850' })
      await link.waitFor()
      assert.equal(await link.getAttribute('href'), `/go/gear/${post.gear[0].id}`)
      assert.equal(await link.getAttribute('rel'), 'nofollow sponsored noopener')
      const [shop] = await Promise.all([context.waitForEvent('page'), link.click()])
      await shop.waitForURL(SHOP)
      await context.close()
    }

    // The owner sees the click on My Posts.
    await page.goto('/my-posts')
    const mine = page.getByRole('button', { name: `View ${title}` })
    await mine.waitFor()
    await eventually(() => mine.getByTestId('gear-clicks').innerText(), '1 gear click', 'the visitor\'s click, counted once')
  })
})
