import { useCallback } from 'react'
import { toast } from '@/lib/toast'
import { confirmPayment, useBalanceChanged, type Purchase } from './api'
import { purchaseSuccessMessage } from './format'

export const CONFIRM_FAILED = 'Payment confirmation failed. Please contact support.'

/**
 * The last step of every purchase, whichever form took the card (test mode or Stripe):
 * `POST /_api/stripe/confirm-payment` credits the paid intent. On success it toasts the
 * new balance, shows it at once and re-reads it; on failure it toasts and rethrows the
 * error (an `ApiError`, e.g. with code `payment_failed`) for the form to show.
 */
export function useConfirmPurchase(): (paymentIntentId: string) => Promise<Purchase> {
  const balanceChanged = useBalanceChanged()
  return useCallback(
    async (paymentIntentId: string) => {
      let purchase: Purchase
      try {
        purchase = await confirmPayment(paymentIntentId)
      } catch (error) {
        toast.error(CONFIRM_FAILED)
        throw error
      }
      toast.success(purchaseSuccessMessage(purchase))
      balanceChanged(purchase.newBalance)
      return purchase
    },
    [balanceChanged],
  )
}
