// Re-rating the same setup in a real browser against the real binary (issue 58): a member
// analyses a messy desk, re-rates it from the result with a tidier photo, sees the deltas
// (both photos, the overall change, each category from -> to), shares the re-rating, and a
// signed-out visitor opens the public page with both photos and "5.2 -> 7.8" and its card;
// the re-rating is then published to Community with its before photo labelled "Before".
import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { join, dirname } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { analyzeChosen, e2eSession, eventually, expectAccessible, SETUP_PHOTO, SETUP_PHOTO_SKIP } from './support.mjs'

const session = e2eSession(before, after)
const photos = dirname(SETUP_PHOTO)
const BEFORE_PHOTO = join(photos, 'setup14_messy_desk.jpg')
const AFTER_PHOTO = join(photos, 'setup01_tidy_monitor_laptop.jpg')
const SKIP = SETUP_PHOTO_SKIP || (existsSync(BEFORE_PHOTO) && existsSync(AFTER_PHOTO) ? false : `the photos ${BEFORE_PHOTO} and ${AFTER_PHOTO} are absent`)

describe('re-rating a setup', { skip: SKIP }, () => {
  it('analyses, re-rates with a tidier photo, shows the deltas, shares and opens the share page', { timeout: 600_000 }, async () => {
    const { context, page } = await session.freshPage({}, { consent: true })
    const res = await page.request.post(`${session.server.baseUrl}/_api/auth/register_with_password`, {
      data: { email: `rerater${Date.now()}@example.com`, password: 'rerate-password-1', displayName: 'Rae Rater' },
    })
    assert.equal(res.status(), 201)

    await page.goto('/')
    const before = await analyzeChosen(page, BEFORE_PHOTO)
    assert.equal(await page.getByTestId('progress').count(), 0, 'a first rating compares with nothing')

    // Re-rate this setup: the form opens linked to it.
    await page.getByRole('link', { name: 'Re-rate this setup' }).click()
    await page.waitForURL(/\/\?rerate=\d+$/)
    await eventually(() => page.getByTestId('rerate-banner').innerText(), new RegExp(`Re-rating your setup from .* \\(${before.replace('.', '\\.')}/10\\)`))
    const after = await analyzeChosen(page, AFTER_PHOTO)

    // The comparison: both photos, the overall change with its sign, each category.
    const progress = page.getByTestId('progress')
    await progress.waitFor()
    assert.match(await page.getByTestId('progress-scores').innerText(), new RegExp(`^${before.replace('.', '\\.')}\\s+${after.replace('.', '\\.')}$`))
    const delta = Math.round((Number(after) - Number(before)) * 10) / 10
    const sign = delta > 0 ? '+' : delta < 0 ? '\u2212' : '\u00b1'
    assert.equal(await page.getByTestId('progress-delta').innerText(), `${sign}${Math.abs(delta).toFixed(1)}`)
    assert.ok(delta > 0, `the tidy desk rates higher than the messy one: ${before} -> ${after}`)
    assert.match(await page.getByTestId('progress-before').locator('img').getAttribute('src'), /^\/media\/analyses\//)
    assert.match(await page.getByTestId('progress-after').locator('img').getAttribute('src'), /^\/media\/analyses\//)
    const categories = await page.getByTestId('progress-category').allInnerTexts()
    assert.ok(categories.length >= 4, categories.join(' | '))
    for (const row of categories) assert.match(row, /\/10 → .*\/10/, row)
    assert.ok((await page.getByTestId('progress-line').innerText()).length > 0)
    await expectAccessible(page, assert, '/results of a re-rating')

    // Share it; a signed-out visitor opens the public page: both photos, "before -> after".
    const panel = page.getByTestId('share-panel')
    await panel.getByRole('button', { name: 'Share my result' }).click()
    const field = panel.getByLabel('Public link')
    await field.waitFor()
    const url = (await field.inputValue()).replace(/\?voice=\w+$/, '')
    const visitor = await session.freshPage()
    const opened = await visitor.page.goto(url)
    assert.equal(opened.status(), 200)
    const title = await visitor.page.title()
    assert.ok(title.startsWith(`${before} \u2192 ${after} · `), title)
    await eventually(() => visitor.page.locator('.progress .big').innerText(), `${before} \u2192 ${after}`)
    assert.equal(await visitor.page.locator('.pair img').count(), 2, 'the photos before and after')
    const card = await visitor.page.request.get(`${url}/card.png`)
    assert.equal(card.status(), 200)
    assert.match(card.headers()['content-type'], /^image\/png/)
    await expectAccessible(visitor.page, assert, 'the public page of a re-rating')

    // Publish the re-rating to Community with its before photo (offered, ticked): the post
    // shows the setup now first ("After") and the before photo ("Before") copied for it.
    await page.getByRole('button', { name: 'Share to Community' }).click()
    const dialog = page.getByRole('dialog', { name: 'Publish Setup to Community' })
    const option = dialog.getByRole('checkbox', { name: /Show the before photo/ })
    await option.waitFor()
    assert.equal(await option.isChecked(), true)
    await dialog.getByRole('button', { name: 'Publish to Community' }).click()
    await page.getByRole('button', { name: 'View post' }).click()
    await page.waitForURL(/\/community\/setup\/\d+$/)
    await eventually(() => page.getByTestId('photo-label').allInnerTexts().then((l) => l.join(' ')), 'After Before')
    const beforeImg = page.getByRole('img', { name: /photo 2, before$/ })
    assert.match(await beforeImg.getAttribute('src'), /^\/media\/community\//, 'a copy kept for the post')
    await expectAccessible(page, assert, 'a re-rated post with its before photo')

    assert.deepEqual(session.problems, [])
    await visitor.context.close()
    await context.close()
  })
})
