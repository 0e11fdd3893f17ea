import { ApiError, type Schemas } from '@/api/client'
import { formatPrice } from '@/lib/price'

/** Rewarded ads (spec 000 §4 "Ad watching", §9; DESIGN.md §5). */
export const ADS_PER_CREDIT = 3
export const DAILY_AD_LIMIT = 30
/** How long the simulated ad plays; the server counts it only after as long. */
export const AD_SECONDS = 3

/** The price of one credit of a pack, rounded to the cent, e.g. 10 for 499 -> `$0.50`. */
export function pricePerCredit(priceCents: number, credits: number, currency = 'usd'): string {
  return formatPrice(credits > 0 ? Math.round(priceCents / credits) : priceCents, currency)
}

/** `1 credit`, `4 credits`. */
export function creditsText(credits: number): string {
  return `${credits} ${credits === 1 ? 'credit' : 'credits'}`
}

/** The toast after a counted ad: a credit earned, or progress towards the next one. */
export function adRewardMessage(reward: Schemas['WatchAdResponse']): string {
  if (reward.creditAwarded) {
    return `Credit earned! You now have ${reward.credits} credits. Watch ${ADS_PER_CREDIT} more ads for another credit.`
  }
  return `Ad watched! Watch ${reward.adsUntilNextCredit} more ad(s) to earn a credit. (${reward.adsWatchedInSession} of ${ADS_PER_CREDIT} ads watched)`
}

export const DAILY_LIMIT_MESSAGE = `Daily limit reached! You've watched the maximum ${DAILY_AD_LIMIT} ads today. Come back tomorrow for more credits!`

/**
 * The toast when an ad could not be started or counted (spec 000 §8 "Watch ad"): the
 * server's `daily_ad_limit` code gets its own message, anything else says why.
 */
export function adErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.code === 'daily_ad_limit') return DAILY_LIMIT_MESSAGE
  const message = error instanceof Error ? error.message : ''
  return `Failed to earn credit: ${message || 'An unknown error occurred.'}`
}

/** The toast after a confirmed purchase (spec 000 §8 "Payment"). */
export function purchaseSuccessMessage(result: Schemas['ConfirmPaymentResponse']): string {
  return `${result.creditsAdded} credits added successfully! Your new balance is ${result.newBalance}.`
}

/**
 * A ledger reason in words: `signup_bonus`, `ad_reward`, `purchase:*`; `spend:<reason>` is a
 * deduction with the reason its user gave (never mistaken for a system line); others as stored.
 */
export function ledgerReason(reason: string): string {
  if (reason === 'signup_bonus') return 'Signup bonus'
  if (reason === 'ad_reward') return 'Rewarded ads'
  if (reason === 'analysis') return 'Setup analysis'
  if (reason === 'rigpage_publish') return 'RigPage published'
  if (reason === 'rigpage_links') return 'RigPage links (10 more)'
  if (reason.startsWith('purchase:')) return 'Purchase'
  if (reason.startsWith('spend:')) return `Spent: ${reason.slice('spend:'.length)}`
  return reason
}

/** A balance change with its sign: `+10`, `-1`. */
export function signedAmount(amount: number): string {
  return amount > 0 ? `+${amount}` : String(amount)
}

/** Groups a typed card number in fours, digits only, at most 19 digits. */
export function formatCardNumber(input: string): string {
  const digits = input.replace(/\D/g, '').slice(0, 19)
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ')
}

/** Formats a typed expiry as `MM / YY`. */
export function formatExpiry(input: string): string {
  const digits = input.replace(/\D/g, '').slice(0, 4)
  return digits.length > 2 ? `${digits.slice(0, 2)} / ${digits.slice(2)}` : digits
}
