import { useCallback } from 'react'
import useSWR, { useSWRConfig } from 'swr'
import { api, unwrap, type Schemas } from '@/api/client'
import { CREDIT_HISTORY_KEY } from '@/api/resources'
import { useAuth } from '@/lib/auth'

export type Pack = Schemas['PackDto']
/** What a card form charges: a pack's price, or a Pro plan's. */
export type Price = Pick<Pack, 'priceCents' | 'currency'>
export type AdStats = Schemas['AdStatsResponse']
export type LedgerEntry = Schemas['LedgerEntryDto']
export type PaymentIntent = Schemas['CreatePaymentIntentResponse']
export type Purchase = Schemas['ConfirmPaymentResponse']

export type Payment = Schemas['PaymentDto']
export type ProState = Schemas['ProResponse']
export type ProPlan = Schemas['ProPlanDto']
export type Plan = Schemas['Plan']

export const PACKS_KEY = '/_api/credits/packs'
/** The signed-in user's card payments (the profile's "Payments and Receipts"). */
export const PAYMENTS_KEY = '/_api/credits/payments'
export const AD_STATS_KEY = '/_api/credits/ad-stats'

export async function fetchPacks(): Promise<Schemas['PacksResponse']> {
  return unwrap(await api.GET('/_api/credits/packs'), 'Could not load the credit packs.')
}

export async function fetchAdStats(): Promise<AdStats> {
  return unwrap(await api.GET('/_api/credits/ad-stats'), 'Unable to load ad stats. Please try again later.')
}

export async function fetchHistory(): Promise<LedgerEntry[]> {
  return unwrap(await api.GET('/_api/credits/history'), 'Could not load your credit history.').entries
}

/** Starts a rewarded ad; the token claims it once the ad has played. */
export async function startAd(): Promise<string> {
  // No body, but state-changing calls must be JSON (the server's CSRF rule).
  const result = await api.POST('/_api/watch-ad/start', { headers: { 'Content-Type': 'application/json' } })
  return unwrap(result, 'An unknown error occurred.').adToken
}

export async function claimAd(adToken: string): Promise<Schemas['WatchAdResponse']> {
  return unwrap(await api.POST('/_api/watch-ad', { body: { adToken } }), 'An unknown error occurred.')
}

export async function createPaymentIntent(packageId: Schemas['PackId']): Promise<PaymentIntent> {
  return unwrap(await api.POST('/_api/stripe/create-payment-intent', { body: { packageId } }), 'Failed to create payment intent')
}

/** Test mode only: pays an intent with a test card number. */
export async function payInTestMode(body: Schemas['TestModePayRequest']): Promise<void> {
  unwrap(await api.POST('/_api/stripe/test-mode/pay', { body }), 'An unexpected error occurred.')
}

export async function confirmPayment(paymentIntentId: string): Promise<Purchase> {
  return unwrap(await api.POST('/_api/stripe/confirm-payment', { body: { paymentIntentId } }), 'Failed to confirm payment')
}

/** The packs for sale; the server is the one source of prices. */
export function usePacks() {
  return useSWR(PACKS_KEY, fetchPacks)
}

/** Today's ad standing: cached 5 minutes, refetched on window focus (spec 000 §7, §9). */
export function useAdStats(enabled: boolean) {
  return useSWR(enabled ? AD_STATS_KEY : null, fetchAdStats, { dedupingInterval: 5 * 60_000, revalidateOnFocus: true })
}

/** The signed-in user's latest balance changes. */
/** Pro's plans and the viewer's own membership. */
export const PRO_KEY = '/_api/pro'

export async function fetchPro(): Promise<ProState> {
  return unwrap(await api.GET('/_api/pro'), 'Could not load Pro.')
}

export function usePro() {
  return useSWR(PRO_KEY, fetchPro)
}

/** Starts a subscription: its first period's payment, paid with the card form like a pack. */
/** A subscription waiting for its first payment: what the card form confirms. */
export type Subscribed = Schemas['SubscribeResponse']

export async function subscribe(plan: Plan): Promise<Subscribed> {
  return unwrap(await api.POST('/_api/pro/subscribe', { body: { plan } }), 'Could not start your subscription. Please try again.')
}

export async function cancelPro(): Promise<ProState> {
  return unwrap(await api.POST('/_api/pro/cancel', { body: {} }), 'Could not cancel your subscription. Please try again.')
}

export async function resumePro(): Promise<ProState> {
  return unwrap(await api.POST('/_api/pro/resume', { body: {} }), 'Could not resume your subscription. Please try again.')
}

export async function fetchPayments(): Promise<Payment[]> {
  return unwrap(await api.GET('/_api/credits/payments'), 'Could not load your payments.').payments
}

/** One paid payment of the signed-in user, for its receipt page. */
export async function fetchReceipt(reference: string): Promise<Payment> {
  return unwrap(await api.GET('/_api/credits/payments/{reference}', { params: { path: { reference } } }), 'Could not load this receipt.')
}

export function usePayments() {
  return useSWR(PAYMENTS_KEY, fetchPayments)
}

export function useCreditHistory(enabled: boolean) {
  return useSWR(enabled ? CREDIT_HISTORY_KEY : null, fetchHistory, { dedupingInterval: 5 * 60_000 })
}

/**
 * After the balance changed: shows the new balance at once (header badge, page), then
 * re-reads the session, the ad stats and the history from the server.
 */
export function useBalanceChanged() {
  const { user, setUser, refreshSession } = useAuth()
  const { mutate } = useSWRConfig()
  return useCallback(
    (credits?: number) => {
      if (user && credits !== undefined) setUser({ ...user, credits })
      refreshSession()
      void mutate(AD_STATS_KEY)
      void mutate(CREDIT_HISTORY_KEY)
      void mutate(PAYMENTS_KEY)
      void mutate(PRO_KEY)
    },
    [user, setUser, refreshSession, mutate],
  )
}
