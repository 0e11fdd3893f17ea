import { ApiError, type Schemas } from '@/api/client'
import { plural } from '@/lib/plural'
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
  return plural(credits, 'credit')
}

/** The toast after a counted ad: a credit earned, or progress towards the next one. */
export function adRewardMessage(reward: Schemas['WatchAdResponse']): string {
  if (reward.creditAwarded) {
    return `Credit earned! You now have ${creditsText(reward.credits)}. Watch ${plural(ADS_PER_CREDIT, 'more ad', 'more ads')} for another credit.`
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
  if (result.proUntil) return `Welcome to Pro! Your analyses are free until ${longDate(result.proUntil)}.`
  return `${creditsText(result.creditsAdded)} added successfully! Your new balance is ${result.newBalance}.`
}

const LONG_DATE = new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric' })

/** `March 14, 2027`. */
export function longDate(date: string | Date): string {
  return LONG_DATE.format(typeof date === 'string' ? new Date(date) : date)
}

/** The ledger lines the server writes itself (`LedgerReason` in the auth crate), in words. */
const LEDGER_REASONS = new Map<string, string>([
  ['signup_bonus', 'Signup bonus'],
  ['ad_reward', 'Rewarded ads'],
  ['analysis', 'Setup analysis'],
  ['rigpage_publish', 'RigPage published'],
  ['rigpage_links', 'RigPage links (10 more)'],
])

/** `rigpage_publish` -> `Rigpage publish`: a stored name read as words. */
function words(text: string): string {
  const spaced = text.replace(/[_-]+/g, ' ').replace(/\s+/g, ' ').trim()
  return spaced ? spaced.charAt(0).toUpperCase() + spaced.slice(1) : ''
}

/**
 * A ledger reason in words: the server's own lines by name, `purchase:<pack>` with the
 * pack, `spend:<reason>` as a deduction with the reason its user gave (never mistaken for a
 * system line), and any reason this client does not know yet read as words, never raw.
 */
export function ledgerReason(reason: string): string {
  const known = LEDGER_REASONS.get(reason)
  if (known) return known
  if (reason.startsWith('purchase:')) {
    const pack = words(reason.slice('purchase:'.length))
    return pack ? `Purchase: ${pack} pack` : 'Purchase'
  }
  if (reason.startsWith('spend:')) {
    const why = words(reason.slice('spend:'.length))
    return why ? `Spent: ${why}` : 'Credits spent'
  }
  return words(reason) || 'Balance change'
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
