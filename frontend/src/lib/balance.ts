/** What the header, the menus and the home page say of an account's standing. */

export const PRO_BALANCE = 'Pro · unlimited analyses'

/**
 * 'N Credits', or for Pro, whose analyses are free, that they are unlimited (their
 * credits only pay for RigPage extras, shown on the profile and in the RigPage editor).
 */
export function balanceLabel(user: { isPro: boolean; credits: number }): string {
  if (user.isPro) return PRO_BALANCE
  return `${user.credits} ${user.credits === 1 ? 'Credit' : 'Credits'}`
}
