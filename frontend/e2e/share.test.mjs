// Sharing a result in a real browser against the real binary: a member analyses a real
// photo, switches it to the Roast voice and shares it from /results; a signed-out visitor
// opens the public page (the roast, its title, preview tags and 1200x630 card, checked with
// axe); My Setups marks it shared; stopping sharing turns the link off.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { analyzePhoto, e2eSession, eventually, expectAccessible, SETUP_PHOTO_SKIP } from './support.mjs'


const session = e2eSession(before, after)

async function register(page, email, displayName) {
  const res = await page.request.post(`${session.server.baseUrl}/_api/auth/register_with_password`, {
    data: { email, password: 'share-password-1', displayName },
  })
  assert.equal(res.status(), 201)
}

/** Width and height from a PNG's IHDR chunk (big-endian, at bytes 16 and 20). */
function pngSize(bytes) {
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG signature')
  assert.equal(bytes.subarray(12, 16).toString('ascii'), 'IHDR')
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) }
}

async function meta(page, attribute, name) {
  const tag = page.locator(`head meta[${attribute}="${name}"]`)
  await eventually(() => tag.count(), 1, `${attribute}=${name}`)
  return tag.getAttribute('content')
}

describe('sharing a result', { skip: SETUP_PHOTO_SKIP }, () => {
  it('shares a result at a public page with a preview card, then stops', { timeout: 300_000 }, async () => {
    const { context, page } = await session.freshPage({}, { consent: true })
    await register(page, `sharer${Date.now()}@example.com`, 'Sam Sharer')
    const score = await analyzePhoto(page)

    // The owner switches to the Roast voice: other words, the same scores.
    const summary = page.getByTestId('summary')
    const comments = page.getByTestId('category-card').locator('p.muted')
    const categoryScores = page.getByTestId('category-card').locator('.category-score')
    const honest = { summary: await summary.innerText(), comments: await comments.allInnerTexts(), scores: await categoryScores.allInnerTexts() }
    const voices = page.getByRole('radiogroup', { name: 'Voice' })
    await eventually(() => voices.getByRole('radio', { name: 'Honest' }).isChecked(), true)
    await voices.getByText('Roast', { exact: true }).click()
    await eventually(() => voices.getByRole('radio', { name: 'Roast' }).isChecked(), true)
    await page.waitForFunction((before) => globalThis.document.querySelector('[data-testid="summary"]')?.textContent !== before, honest.summary)
    const roastSummary = await summary.innerText()
    assert.notDeepEqual(await comments.allInnerTexts(), honest.comments)
    assert.deepEqual(await categoryScores.allInnerTexts(), honest.scores)
    await eventually(() => page.getByTestId('overall-score').innerText(), score)
    const saved = await (await page.request.get(`${session.server.baseUrl}/_api/my-analyses`)).json()
    assert.equal(roastSummary, saved.analyses[0].result.voices.roast.summary)

    // The owner creates the public link on /results: the roast's.
    const panel = page.getByTestId('share-panel')
    await panel.getByRole('button', { name: 'Share my result' }).click()
    const field = panel.getByLabel('Public link')
    await field.waitFor()
    const url = await field.inputValue()
    assert.match(url, new RegExp(`^${session.server.baseUrl}/share/[^/?]+\\?voice=roast$`))
    const plainUrl = url.replace(/\?voice=roast$/, '')
    const tweet = await panel.getByRole('link', { name: /Share on X/ }).getAttribute('href')
    assert.equal(new URL(tweet).searchParams.get('url'), url)
    const preview = panel.getByRole('img', { name: /Preview card/ })
    await preview.waitFor()
    await eventually(() => preview.getAttribute('src'), `${plainUrl}/card.png?voice=roast`)
    await expectAccessible(page, assert, '/results shared, with the voice switch')

    // A signed-out visitor opens it: the server's page with its preview tags and card.
    const visitor = await session.freshPage()
    const opened = await visitor.page.goto(url)
    assert.equal(opened.status(), 200)
    const title = await visitor.page.title()
    assert.ok(title.includes('/10'), title)
    assert.ok(title.includes(score), `${title} has the score ${score}`)
    await eventually(() => visitor.page.locator('p.summary').innerText(), roastSummary)
    const image = await meta(visitor.page, 'property', 'og:image')
    assert.ok(image.endsWith('card.png?voice=roast'), image)
    assert.equal(await meta(visitor.page, 'name', 'twitter:card'), 'summary_large_image')
    const card = await visitor.page.request.get(image)
    assert.equal(card.status(), 200)
    assert.match(card.headers()['content-type'], /^image\/png/)
    assert.deepEqual(pngSize(await card.body()), { width: 1200, height: 630 })
    await expectAccessible(visitor.page, assert, 'the public share page')

    // My Setups marks the analysis shared, linking to the public page.
    await page.goto('/my-setups')
    const badge = page.getByTestId('setup-card').getByTestId('shared-badge')
    await badge.waitFor()
    assert.equal(new URL(await badge.getAttribute('href'), session.server.baseUrl).toString(), plainUrl)

    // Its details show the same link, in the voice chosen last; stopping turns it off.
    await page.getByRole('button', { name: /View Details/ }).click()
    await page.waitForURL('**/results')
    await eventually(() => panel.getByLabel('Public link').inputValue(), url)
    await panel.getByRole('button', { name: 'Stop sharing' }).click()
    await panel.getByRole('button', { name: 'Share my result' }).waitFor()
    assert.equal((await visitor.page.request.get(url)).status(), 404)
    assert.equal((await visitor.page.request.get(image)).status(), 404)

    assert.deepEqual(session.problems, [])
    await visitor.context.close()
    await context.close()
  })
})
