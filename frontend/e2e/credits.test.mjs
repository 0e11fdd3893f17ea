// Credits in a real browser against the real binary: rewarded ads (the server's 3-second
// rule runs on its own clock, so real time passes between start and claim) and buying
// packs with the built-in test-mode payment provider.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { e2eSession, eventually, expectAccessible } from './support.mjs'

const session = e2eSession(before, after)
const freshPage = (options = {}) => session.freshPage(options, { consent: true })

let accounts = 0

/** A page signed in as a new account (3 signup credits), on /buy-credits. */
async function newMemberOnBuyCredits(options = {}) {
  const { context, page } = await freshPage(options)
  const email = `buyer${Date.now()}-${++accounts}@example.com`
  const res = await page.request.post(`${session.server.baseUrl}/_api/auth/register_with_password`, {
    data: { email, password: 'buyer-password-1', displayName: 'Credit Buyer' },
  })
  assert.equal(res.status(), 201)
  await page.goto('/buy-credits')
  await page.getByRole('heading', { name: 'Get Credits', level: 1 }).waitFor()
  await page.getByTestId('credit-balance').waitFor()
  await eventually(() => page.getByTestId('credit-balance').innerText(), '3 credits')
  return { context, page }
}

async function headerBadge(page) {
  await page.getByRole('button', { name: 'Account menu' }).click()
  const text = await page.getByRole('menu').getByTestId('credits-badge').innerText()
  await page.keyboard.press('Escape')
  return text
}

async function sessionCredits(page) {
  const res = await page.request.get(`${session.server.baseUrl}/_api/auth/session`)
  return (await res.json()).user.credits
}

async function payWith(dialog, cardNumber) {
  await dialog.getByLabel('Card number').fill(cardNumber)
  await dialog.getByLabel('Expiry date').fill('12 / 34')
  await dialog.getByLabel('CVC').fill('123')
  await dialog.getByRole('button', { name: 'Pay $4.99' }).click()
}

describe('a visitor on /buy-credits', () => {
  it('sees the packs from the server and is asked to sign in to watch or buy', async () => {
    const { context, page } = await freshPage({ viewport: { width: 360, height: 780 } })
    await page.goto('/buy-credits')
    await page.getByRole('heading', { name: 'Get Credits', level: 1 }).waitFor()
    await page.getByText('Sign up to get 3 free credits').waitFor()
    const starter = page.getByTestId('pack-starter')
    await starter.getByText('$4.99').waitFor()
    await eventually(() => starter.getByText('$0.50 per credit').count(), 1)
    await eventually(() => page.getByTestId('pack-popular').getByText('Most Popular').count(), 1)
    await eventually(() => page.getByTestId('pack-value').getByText('$19.99').count(), 1)
    await eventually(() => page.getByRole('link', { name: 'Contact Support' }).getAttribute('href'), '/contact')
    // No ad client is configured: no ad slot, not an empty box.
    await eventually(() => page.getByRole('complementary', { name: 'Advertisement' }).count(), 0)
    // Nothing overflows sideways at 360 px.
    // eslint-disable-next-line no-undef -- runs in the page
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 360)
    await expectAccessible(page, assert, '/buy-credits signed out')

    await page.getByRole('button', { name: 'Sign In to Watch Ads' }).click()
    const login = page.getByRole('dialog', { name: 'Welcome to SetupIQ' })
    await login.getByRole('tab', { name: 'Log In', selected: true }).waitFor()
    await page.keyboard.press('Escape')
    await login.waitFor({ state: 'hidden' })
    await page.getByRole('button', { name: 'Buy Now: Starter Pack' }).click()
    await login.waitFor()
    await context.close()
  })
})

describe('a new member', () => {
  it('watches three ads and earns a credit', async () => {
    const { context, page } = await newMemberOnBuyCredits()
    await page.getByTestId('ads-remaining').waitFor()
    await eventually(() => page.getByTestId('ads-remaining').innerText(), '30')
    await expectAccessible(page, assert, '/buy-credits signed in')

    const expected = [
      'Ad watched! Watch 2 more ad(s) to earn a credit. (1 of 3 ads watched)',
      'Ad watched! Watch 1 more ad(s) to earn a credit. (2 of 3 ads watched)',
      'Credit earned! You now have 4 credits. Watch 3 more ads for another credit.',
    ]
    const started = Date.now()
    for (const [index, toast] of expected.entries()) {
      await page.getByRole('button', { name: 'Watch Ad' }).click()
      // While the ad plays the button is disabled and the countdown is visible.
      const progress = page.getByRole('progressbar', { name: 'Ad playing' })
      await progress.waitFor()
      await eventually(() => page.getByRole('button', { name: /^Watching|^Starting|^Claiming/ }).isDisabled(), true)
      if (index === 0) await expectAccessible(page, assert, 'ad playing')
      await page.getByText(toast, { exact: true }).waitFor()
      await progress.waitFor({ state: 'hidden' })
    }
    assert.ok(Date.now() - started >= 9000, 'each ad played for 3 real seconds')

    await eventually(() => page.getByTestId('credit-balance').innerText(), '4 credits')
    assert.equal(await headerBadge(page), '4 Credits')
    await page.getByTestId('ads-remaining').getByText('27').waitFor()
    await page.getByRole('cell', { name: 'Rewarded ads' }).waitFor()
    assert.equal(await sessionCredits(page), 4)
    await context.close()
  })

  it('buys the Starter pack with the test card', async () => {
    const { context, page } = await newMemberOnBuyCredits()
    await page.getByRole('button', { name: 'Buy Now: Starter Pack' }).click()
    const dialog = page.getByRole('dialog', { name: 'Complete Your Purchase' })
    await dialog.getByText('Starter Pack: 10 credits for $4.99').waitFor()
    await dialog.getByText('Test mode', { exact: true }).waitFor()
    await dialog.getByLabel('Card number').waitFor()
    await expectAccessible(page, assert, 'payment dialog')

    await payWith(dialog, '4242 4242 4242 4242')
    await page.getByText('10 credits added successfully! Your new balance is 13.', { exact: true }).waitFor()
    await dialog.getByRole('heading', { name: 'Payment Successful!' }).waitFor()
    await expectAccessible(page, assert, 'payment success')
    await dialog.getByRole('button', { name: 'Done' }).click()
    await dialog.waitFor({ state: 'hidden' })

    await eventually(() => page.getByTestId('credit-balance').innerText(), '13 credits')
    assert.equal(await headerBadge(page), '13 Credits')
    await page.getByRole('cell', { name: 'Purchase' }).waitFor()
    assert.equal(await sessionCredits(page), 13)

    // The receipt: e-mailed, listed on the profile, and printable.
    const receipts = (await session.server.outbox()).filter((m) => m.subject === 'Your SetupIQ receipt: Starter Pack (10 credits)')
    assert.equal(receipts.length, 1)
    await page.goto('/profile')
    await page.getByRole('link', { name: 'Receipt for Starter Pack (10 credits)' }).click()
    await page.getByRole('heading', { name: 'Receipt' }).waitFor()
    await page.getByText('$4.99').waitFor()
    await page.getByText('Test mode: no card was charged').waitFor()
    await expectAccessible(page, assert, 'receipt')
    await context.close()
  })

  it('buys Pro with the test card, cancels it and stays Pro until the period ends', async () => {
    const { context, page } = await newMemberOnBuyCredits()
    await page.goto('/')
    const pricing = page.locator('#pricing')
    await pricing.getByText('$4.99 / month').waitFor()
    await pricing.getByRole('button', { name: 'Upgrade to Pro' }).click()
    const dialog = page.getByRole('dialog', { name: 'Upgrade to Pro' })
    await dialog.getByRole('radio', { name: /Monthly/ }).check()
    await expectAccessible(page, assert, 'Pro plans')
    await dialog.getByRole('button', { name: 'Continue to Payment' }).click()
    await payWith(dialog, '4242 4242 4242 4242')
    await dialog.getByRole('heading', { name: "You're Pro!" }).waitFor()
    await dialog.getByRole('button', { name: 'Done' }).click()
    await dialog.waitFor({ state: 'hidden' })
    assert.equal(await headerBadge(page), 'Pro · unlimited analyses')
    // An analysis costs a Pro member no credit.
    const analysed = await page.request.post(`${session.server.baseUrl}/_api/analyze-setup`, {
      data: { type: 'text', value: 'A white desk with one monitor on an arm, cables in a tray and an ergonomic chair.' },
    })
    assert.equal(analysed.status(), 200, await analysed.text())
    assert.equal(await sessionCredits(page), 3, 'analyses are free with Pro')

    await page.goto('/profile')
    const membership = page.getByTestId('membership')
    await membership.getByText(/^Pro, monthly: renews /).waitFor()
    await page.getByRole('button', { name: 'Cancel Subscription' }).click()
    const confirmCancel = page.getByRole('dialog', { name: 'Cancel your Pro subscription?' })
    await confirmCancel.getByRole('button', { name: 'Cancel Subscription' }).click()
    await membership.getByText(/^Pro until .+ \(cancelled\)$/).waitFor()
    await page.reload()
    await page.getByTestId('membership').getByText(/\(cancelled\)$/).waitFor()
    assert.equal(await headerBadge(page), 'Pro · unlimited analyses', 'still Pro until the period ends')
    await page.getByRole('link', { name: 'Receipt for SetupIQ Pro, monthly' }).waitFor()
    await context.close()
  })

  it('sees a declined card in the dialog and keeps the balance', async () => {
    const { context, page } = await newMemberOnBuyCredits({ viewport: { width: 360, height: 780 } })
    await page.getByRole('button', { name: 'Buy Now: Starter Pack' }).click()
    const dialog = page.getByRole('dialog', { name: 'Complete Your Purchase' })
    await payWith(dialog, '4000 0000 0000 0002')
    await dialog.getByRole('alert').getByText('Your card was declined.', { exact: true }).waitFor()
    await expectAccessible(page, assert, 'declined payment')
    await eventually(() => dialog.getByRole('heading', { name: 'Payment Successful!' }).count(), 0)
    await dialog.getByRole('button', { name: 'Close' }).click()
    await dialog.waitFor({ state: 'hidden' })

    await eventually(() => page.getByTestId('credit-balance').innerText(), '3 credits')
    assert.equal(await sessionCredits(page), 3)
    await eventually(() => page.getByRole('cell', { name: 'Purchase' }).count(), 0)
    await context.close()
  })
})

describe('every page above', () => {
  it('threw no script error and had nothing blocked by the Content-Security-Policy', () => {
    assert.deepEqual(session.problems, [])
  })
})
