// A new visitor's first minutes in a real browser against the real binary: rating a setup
// from a description alone (the 20-character rule in the form), and a page file that cannot
// be fetched (a new release replaced it, or the connection dropped) reloading the page once
// by itself instead of showing a developer error page; the keyboard through the sign-up form.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { ANALYSIS_TIMEOUT, e2eSession, eventually, expectAccessible } from './support.mjs'

const session = e2eSession(before, after)

describe('the first visit', () => {
  it('rates a setup from a description alone', { timeout: 120_000 }, async () => {
    const { page } = await session.freshPage({}, { consent: true })
    await page.goto('/')
    await page.getByRole('tab', { name: 'Describe' }).click()
    const field = page.getByLabel('Describe your setup')
    await field.fill('Two monitors')
    await field.blur()
    await page.getByText('Please describe your setup in at least 20 characters.').waitFor()
    await field.fill('Two 27 inch monitors on arms, a white desk, RGB strips behind it and every cable in a tray')
    await page.getByText('Please describe your setup in at least 20 characters.').waitFor({ state: 'hidden' })
    await page.getByRole('button', { name: 'Analyze My Setup' }).click()
    await page.waitForURL('**/results')
    const score = page.getByTestId('overall-score')
    await score.waitFor({ timeout: ANALYSIS_TIMEOUT })
    await eventually(() => score.innerText(), /^\d+(\.\d)?$/)
    await expectAccessible(page, assert, '/results of a description')
  })

  it('logs no error in the console on a visitor\'s pages', { timeout: 60_000 }, async () => {
    const { page } = await session.freshPage({}, { consent: true })
    const errors = []
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()))
    // A request cut short by leaving the page (net::ERR_ABORTED) is not a failure.
    page.on('requestfailed', (request) => request.failure()?.errorText !== 'net::ERR_ABORTED' && errors.push(`${request.url()} failed`))
    for (const path of ['/', '/community', '/tips', '/how-we-score']) {
      await page.goto(path)
      await page.getByRole('heading', { level: 1 }).first().waitFor()
      await page.waitForLoadState('networkidle')
    }
    assert.deepEqual(errors, [], 'a signed-out session check is an answer, not an error')
  })

  it('tabs from an empty password on through the rest of the sign-up form', { timeout: 60_000 }, async () => {
    const { page } = await session.freshPage({}, { consent: true })
    await page.goto('/')
    await page.getByRole('button', { name: 'Get Started' }).first().click()
    await page.getByRole('tab', { name: 'Register' }).click()
    await page.getByLabel('Password', { exact: true }).focus()
    // eslint-disable-next-line no-undef -- runs in the page
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent)
    // Leaving the empty field shows its error while focus moves on: it must move on, not to the dialog.
    await page.keyboard.press('Tab')
    await page.getByText('Password must be at least 8 characters', { exact: true }).waitFor()
    await eventually(focused, 'Show password', 'the focus after Tab')
    await page.keyboard.press('Tab')
    await eventually(focused, /^Create Account/, 'the focus after Tab')
    await page.keyboard.press('Tab')
    await eventually(focused, 'Close', 'the focus after Tab')
    await expectAccessible(page, assert, 'the sign-up form with an error')
  })

  it('reloads once by itself when a page file cannot be fetched', { timeout: 60_000 }, async () => {
    const { page } = await session.freshPage({}, { consent: true })
    await page.goto('/')
    await page.getByRole('heading', { name: 'Get Your Gaming Setup Rated by AI' }).waitFor()

    // From now on script files fail, as after a release that replaced them, until the
    // page itself is loaded again.
    let failing = true
    let reloads = 0
    page.on('request', (request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) {
        failing = false
        reloads += 1
      }
    })
    await page.route('**/assets/**', (route) => (failing ? route.abort() : route.continue()))
    await page.getByRole('link', { name: 'How We Score' }).first().click()

    await page.getByRole('heading', { name: 'How We Score', level: 1 }).waitFor()
    assert.equal(reloads, 1, 'one reload, no loop')
    assert.equal(new URL(page.url()).pathname, '/how-we-score')
    await eventually(() => page.getByText('Hey developer').count(), 0)
  })
})
