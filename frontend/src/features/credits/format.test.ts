import {
  adErrorMessage,
  adRewardMessage,
  creditsText,
  formatCardNumber,
  formatExpiry,
  ledgerReason,
  pricePerCredit,
  purchaseSuccessMessage,
  signedAmount,
} from './format'
import { ApiError } from '@/api/client'
import { formatPrice } from '@/lib/price'
import { isExpired, parseExpiry, testCardSchema } from './schemas'

describe('prices', () => {
  it.each([
    [499, '$4.99'],
    [999, '$9.99'],
    [1999, '$19.99'],
    [0, '$0.00'],
    [5, '$0.05'],
    [123456, '$1,234.56'],
  ])('formats %i cents as %s', (cents, text) => {
    expect(formatPrice(cents)).toBe(text)
    expect(formatPrice(cents, 'usd')).toBe(text)
  })

  it.each([
    [499, 10, '$0.50'],
    [999, 25, '$0.40'],
    [1999, 100, '$0.20'],
  ])('prices %i cents for %i credits at %s each', (cents, credits, each) => {
    expect(pricePerCredit(cents, credits)).toBe(each)
  })
})

describe('ad messages', () => {
  it('counts progress towards the next credit', () => {
    expect(adRewardMessage({ creditAwarded: false, credits: 3, adsUntilNextCredit: 2, adsWatchedInSession: 1 })).toBe(
      'Ad watched! Watch 2 more ad(s) to earn a credit. (1 of 3 ads watched)',
    )
    expect(adRewardMessage({ creditAwarded: false, credits: 3, adsUntilNextCredit: 1, adsWatchedInSession: 2 })).toBe(
      'Ad watched! Watch 1 more ad(s) to earn a credit. (2 of 3 ads watched)',
    )
  })

  it('announces an earned credit with the new balance', () => {
    expect(adRewardMessage({ creditAwarded: true, credits: 4, adsUntilNextCredit: 3, adsWatchedInSession: 0 })).toBe(
      'Credit earned! You now have 4 credits. Watch 3 more ads for another credit.',
    )
    expect(adRewardMessage({ creditAwarded: true, credits: 1, adsUntilNextCredit: 3, adsWatchedInSession: 0 })).toBe(
      'Credit earned! You now have 1 credit. Watch 3 more ads for another credit.',
    )
  })

  it('maps the daily limit and other failures', () => {
    expect(adErrorMessage(new ApiError(429, 'Daily ad watch limit reached. Come back tomorrow for more credits!', [], 'daily_ad_limit'))).toBe(
      "Daily limit reached! You've watched the maximum 30 ads today. Come back tomorrow for more credits!",
    )
    expect(adErrorMessage(new ApiError(400, 'Please watch the whole ad (3 seconds) to earn credit.', [], 'validation_failed'))).toBe(
      'Failed to earn credit: Please watch the whole ad (3 seconds) to earn credit.',
    )
    expect(adErrorMessage(new Error(''))).toBe('Failed to earn credit: An unknown error occurred.')
    expect(adErrorMessage('boom')).toBe('Failed to earn credit: An unknown error occurred.')
  })

  it('recognises the daily limit by its code, not by its wording', () => {
    expect(adErrorMessage(new ApiError(429, 'Try again tomorrow.', [], 'daily_ad_limit'))).toBe(
      "Daily limit reached! You've watched the maximum 30 ads today. Come back tomorrow for more credits!",
    )
    expect(adErrorMessage(new ApiError(429, 'Daily ad watch limit reached. Come back tomorrow for more credits!', [], 'rate_limited'))).toBe(
      'Failed to earn credit: Daily ad watch limit reached. Come back tomorrow for more credits!',
    )
  })
})

describe('purchase and history texts', () => {
  it('reports a purchase', () => {
    expect(purchaseSuccessMessage({ creditsAdded: 10, newBalance: 13 })).toBe('10 credits added successfully! Your new balance is 13.')
    expect(purchaseSuccessMessage({ creditsAdded: 1, newBalance: 1 })).toBe('1 credit added successfully! Your new balance is 1.')
  })

  it.each([
    ['signup_bonus', 'Signup bonus'],
    ['ad_reward', 'Rewarded ads'],
    ['purchase:starter', 'Purchase: Starter pack'],
    ['purchase:value', 'Purchase: Value pack'],
    ['purchase:', 'Purchase'],
    ['analysis', 'Setup analysis'],
    ['rigpage_publish', 'RigPage published'],
    ['rigpage_links', 'RigPage links (10 more)'],
    // A user's own reason is never taken for one of the server's lines.
    ['spend:rigpage_publish', 'Spent: Rigpage publish'],
    ['spend:signup_bonus', 'Spent: Signup bonus'],
    ['spend:bench', 'Spent: Bench'],
    ['spend:', 'Credits spent'],
    // Reasons this client does not know yet: words, never the stored name.
    ['referral_bonus', 'Referral bonus'],
    ['admin-grant', 'Admin grant'],
    ['constructor', 'Constructor'],
    ['', 'Balance change'],
    ['__', 'Balance change'],
  ])('names the reason %j as %j', (reason, words) => {
    expect(ledgerReason(reason)).toBe(words)
  })

  it('never shows a stored reason name with underscores', () => {
    for (const reason of ['signup_bonus', 'ad_reward', 'analysis', 'rigpage_publish', 'rigpage_links', 'purchase:popular', 'spend:some_thing', 'new_reason']) {
      expect(ledgerReason(reason)).not.toContain('_')
    }
  })

  it('signs amounts and counts credits', () => {
    expect(signedAmount(10)).toBe('+10')
    expect(signedAmount(-1)).toBe('-1')
    expect(creditsText(0)).toBe('0 credits')
    expect(creditsText(1)).toBe('1 credit')
    expect(creditsText(4)).toBe('4 credits')
  })
})

describe('card form', () => {
  it('groups card numbers and formats expiry dates as typed', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242')
    expect(formatCardNumber('4000-0000 00000002x')).toBe('4000 0000 0000 0002')
    expect(formatCardNumber('42424')).toBe('4242 4')
    expect(formatExpiry('12')).toBe('12')
    expect(formatExpiry('1234')).toBe('12 / 34')
    expect(formatExpiry('12 / 345')).toBe('12 / 34')
  })

  it('reads expiry dates and knows which are past', () => {
    expect(parseExpiry('12 / 34')).toEqual({ month: 12, year: 2034 })
    expect(parseExpiry('0134')).toEqual({ month: 1, year: 2034 })
    expect(parseExpiry('13 / 34')).toBeNull()
    expect(parseExpiry('1 / 3')).toBeNull()
    const today = new Date(2026, 5, 15)
    expect(isExpired({ month: 6, year: 2026 }, today)).toBe(false)
    expect(isExpired({ month: 5, year: 2026 }, today)).toBe(true)
    expect(isExpired({ month: 1, year: 2027 }, today)).toBe(false)
  })

  it('validates with the card form messages and sends digits only', () => {
    expect(testCardSchema.parse({ cardNumber: '4242 4242 4242 4242', expiry: '12 / 99', cvc: '123' }).cardNumber).toBe('4242424242424242')
    const failed = testCardSchema.safeParse({ cardNumber: '4242', expiry: '1', cvc: '1' })
    expect(failed.success).toBe(false)
    expect(failed.error?.issues.map((i) => i.message)).toEqual([
      'Your card number is incomplete.',
      "Your card's expiration date is incomplete.",
      "Your card's security code is incomplete.",
    ])
    expect(testCardSchema.safeParse({ cardNumber: '4242424242424242', expiry: '01 / 20', cvc: '123' }).error?.issues[0]?.message).toBe(
      "Your card's expiration date is in the past.",
    )
  })
})
