// The analysis journey in a real browser against the real binary and its embedded
// analyzer: a visitor's free analysis of a real photo, signing up from its page to share
// it (the result is saved to the new account, free, and shared from there), the credits
// dialog once the trial is used, signing up from it, the pending analysis resuming, the
// saved history, and deleting the analysis from My Setups (its photos go with it).
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { ANALYSIS_TIMEOUT, e2eSession, eventually, expectAccessible, SETUP_PHOTO, SETUP_PHOTO_SKIP, waitForFocus } from './support.mjs'


const session = e2eSession(before, after)

async function openAccountMenu(page) {
  await page.getByRole('button', { name: 'Account menu' }).click()
  return page.getByRole('menu')
}

async function choosePhotoAndAnalyze(page) {
  await page.getByRole('heading', { name: 'Get Your Gaming Setup Rated by AI' }).waitFor()
  const analyze = page.getByRole('button', { name: 'Analyze My Setup' })
  await eventually(() => analyze.isDisabled(), true)
  await page.getByLabel(/Setup photo/).setInputFiles(SETUP_PHOTO)
  await page.getByTestId('chosen-file').waitFor()
  await eventually(() => page.getByRole('button', { name: 'Clear' }).count(), 1)
  await analyze.click()
  await page.waitForURL('**/results')
}

async function waitForScore(page) {
  const score = page.getByTestId('overall-score')
  const failed = page.getByRole('heading', { name: 'Analysis Failed' })
  await score.or(failed).waitFor({ timeout: ANALYSIS_TIMEOUT })
  if (await failed.isVisible()) assert.fail(`the analysis failed: ${await page.getByTestId('analysis-error').innerText()}`)
  const text = await score.innerText()
  assert.match(text, /^\d{1,2}\.\d$/)
  const value = Number(text)
  assert.ok(value >= 0 && value <= 10, text)
  return text
}

describe('analysing a setup', { skip: SETUP_PHOTO_SKIP }, () => {
  it('gives a visitor one free analysis, saves it to the account they sign up to and shares it, then signs them up and resumes the next one', { timeout: 600_000 }, async () => {
    const { context, page } = await session.freshPage({}, { consent: true })
    const email = `analyst${Date.now()}@example.com`
    const sharer = `sharer${Date.now()}@example.com`

    // The free analysis of a real photo.
    await page.goto('/')
    await page.getByText('Sign up to get 3 free credits').waitFor()
    await choosePhotoAndAnalyze(page)
    await page.getByRole('heading', { name: 'Analyzing your setup...' }).waitFor()
    const freeScore = await waitForScore(page)
    await page.getByText('Your setup analysis is complete!').waitFor()
    await eventually(() => page.getByTestId('category-card').count(), 6)
    for (const name of ['Cable Management', 'RGB/Lighting', 'Desk Cleanliness', 'Monitor Setup', 'Chair & Comfort', 'Aesthetic Vibe']) {
      await eventually(() => page.getByRole('heading', { name, exact: true }).count(), 1, name)
    }
    await eventually(() => page.getByTestId('analyzer').innerText(), /Rated by/)
    assert.ok((await page.getByTestId('summary').innerText()).length > 0)
    await page.getByRole('heading', { name: 'Trending Gear' }).waitFor()
    await page.getByRole('banner').getByRole('button', { name: 'Log In' }).waitFor()
    await page.getByRole('button', { name: 'Sign In', exact: true }).waitFor()
    await expectAccessible(page, assert, '/results')

    // The PDF export is for Pro members: the app's own dialog says so, not a browser alert.
    let browserAlert = null
    const onBrowserDialog = (dialog) => {
      browserAlert = dialog.message()
      void dialog.dismiss()
    }
    page.on('dialog', onBrowserDialog)
    await page.getByRole('button', { name: /Export PDF/ }).click()
    const proOnly = page.getByRole('dialog', { name: 'Pro Feature' })
    await proOnly.getByText('PDF export is available for Pro users only.').waitFor()
    await proOnly.getByRole('button', { name: 'Maybe Later' }).click()
    await proOnly.waitFor({ state: 'detached' })
    page.off('dialog', onBrowserDialog)
    assert.equal(browserAlert, null)

    // "Sign up to share your result": the free result is saved to the new account, the page
    // comes back to it saved, and Share makes its public link.
    const panel = page.getByTestId('share-panel')
    await panel.getByRole('button', { name: 'Sign up to share your result' }).click()
    const signUp = page.getByRole('dialog', { name: 'Welcome to SetupIQ' })
    await signUp.getByRole('tab', { name: 'Register', selected: true }).waitFor()
    await signUp.getByLabel('Display Name').fill('Rig Sharer')
    await signUp.getByLabel('Email').fill(sharer)
    await signUp.getByLabel('Password', { exact: true }).fill('sharer-password-1')
    await signUp.getByRole('button', { name: /Create Account/ }).click()
    await signUp.waitFor({ state: 'hidden' })
    await panel.getByRole('button', { name: 'Share my result' }).click()
    const link = panel.getByLabel('Public link')
    await link.waitFor()
    assert.equal(await page.getByText(/This result was not saved to your account/).count(), 0)
    assert.equal(await page.getByTestId('overall-score').innerText(), freeScore)
    const publicPage = await page.request.get(await link.inputValue())
    assert.equal(publicPage.status(), 200)
    assert.match(await publicPage.text(), new RegExp(freeScore.replace('.', '\\.')))
    const [claimed] = (await (await page.request.get(`${session.server.baseUrl}/_api/my-analyses`)).json()).analyses
    assert.equal(claimed.overallRating, Number(freeScore))
    assert.equal(claimed.sharePath, new URL(await link.inputValue()).pathname)
    const sharerSession = await (await page.request.get(`${session.server.baseUrl}/_api/auth/session`)).json()
    assert.equal(sharerSession.user.credits, 3, 'the saved free result cost no credit')
    let menu = await openAccountMenu(page)
    await menu.getByRole('menuitem', { name: 'Log Out' }).click()
    await page.getByRole('banner').getByRole('button', { name: 'Log In' }).waitFor()

    // A second analysis: the trial is used, so the credits dialog offers the paths.
    await page.goto('/')
    await choosePhotoAndAnalyze(page)
    const paths = page.getByRole('dialog', { name: 'Choose Your Path' })
    await paths.waitFor({ timeout: ANALYSIS_TIMEOUT })
    await paths.getByText('+3 Credits').waitFor()
    await expectAccessible(page, assert, 'credits dialog')
    await paths.getByRole('button', { name: 'Sign Up Free' }).click()
    await paths.waitFor({ state: 'hidden' })

    // Signing up brings 3 credits; the analysis resumes by itself and costs one.
    const auth = page.getByRole('dialog', { name: 'Welcome to SetupIQ' })
    await auth.getByRole('tab', { name: 'Register', selected: true }).waitFor()
    await auth.getByLabel('Display Name').fill('Rig Analyst')
    await auth.getByLabel('Email').fill(email)
    await auth.getByLabel('Password', { exact: true }).fill('analyst-password-1')
    await auth.getByRole('button', { name: /Create Account/ }).click()
    await auth.waitFor({ state: 'hidden' })
    const score = await waitForScore(page)
    await eventually(() => page.getByTestId('category-card').count(), 6)
    assert.equal(new URL(page.url()).pathname, '/results')
    menu = await openAccountMenu(page)
    await menu.getByText('2 Credits').waitFor()

    // My Setups lists the saved analysis; its details open without a new analysis.
    await menu.getByRole('menuitem', { name: 'My Setups' }).click()
    await page.getByRole('heading', { name: 'My Setups', level: 1 }).waitFor()
    const card = page.getByTestId('setup-card')
    await card.first().waitFor()
    await eventually(() => card.count(), 1)
    await eventually(() => card.locator('.history-rating strong').innerText(), score)
    const thumb = card.locator('img.history-thumb')
    await eventually(() => thumb.getAttribute('src'), /^\/media\//)
    await expectAccessible(page, assert, '/my-setups')
    await card.getByRole('button', { name: /View Details/ }).click()
    await page.waitForURL('**/results')
    await eventually(() => page.getByTestId('overall-score').innerText(), score)
    const balance = await page.request.get(`${session.server.baseUrl}/_api/auth/session`)
    assert.equal((await balance.json()).user.credits, 2)

    // Deleting it from My Setups: confirmed first, then the card and its photos are gone.
    const [saved] = (await (await page.request.get(`${session.server.baseUrl}/_api/my-analyses`)).json()).analyses
    const media = [saved.result.imageUrl, saved.result.thumbnailUrl].filter(Boolean)
    assert.ok(media.length > 0, 'the saved analysis has a photo')
    for (const path of media) assert.equal((await page.request.get(`${session.server.baseUrl}${path}`)).status(), 200, path)
    await page.goto('/my-setups')
    await card.first().waitFor()
    const remove = card.getByRole('button', { name: 'Delete analysis' })
    await remove.click()
    const confirm = page.getByRole('dialog', { name: 'Delete Analysis' })
    await confirm.getByText('Are you sure you want to delete this analysis? This action cannot be undone.').waitFor()
    await confirm.getByText('Its photo, its share link and any community post made from it are deleted too.').waitFor()
    await expectAccessible(page, assert, 'the delete analysis dialog')
    await confirm.getByRole('button', { name: 'Cancel', exact: true }).click()
    await confirm.waitFor({ state: 'detached' })
    await waitForFocus(remove)
    await eventually(() => card.count(), 1)
    await remove.click()
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click()
    await page.getByText('Analysis deleted.').waitFor()
    await page.getByRole('heading', { name: 'No setups yet' }).waitFor()
    await eventually(() => card.count(), 0)
    await page.waitForFunction(() => globalThis.document.activeElement?.textContent === 'My Setups')
    for (const path of media) assert.equal((await page.request.get(`${session.server.baseUrl}${path}`)).status(), 404, path)
    assert.equal((await page.request.get(`${session.server.baseUrl}/_api/analyses/${saved.id}`)).status(), 404)

    assert.deepEqual(session.problems, [])
    await context.close()
  })

  it('asks visitors on /my-setups to log in', async () => {
    const { context, page } = await session.freshPage({}, { consent: true })
    await page.goto('/my-setups')
    await page.getByRole('heading', { name: 'Log in to see your setups' }).waitFor()
    await eventually(() => page.getByRole('main').getByRole('button', { name: 'Sign Up' }).count(), 1)
    await expectAccessible(page, assert, '/my-setups signed out')
    await page.goto('/results')
    await page.getByRole('heading', { name: 'Get Your Gaming Setup Rated by AI' }).waitFor()
    await context.close()
  })
})
