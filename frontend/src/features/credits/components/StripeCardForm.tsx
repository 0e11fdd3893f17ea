import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js'
import { loadStripe, type Stripe } from '@stripe/stripe-js'
import { useState, type FormEvent } from 'react'
import { formatPrice } from '@/lib/price'
import type { PaymentIntent, Price, Purchase } from '../api'
import { useConfirmPurchase } from '../useConfirmPurchase'

interface StripeCardFormProps {
  publishableKey: string
  /** What is paid: a pack, or a Pro plan's period. */
  price: Price
  /** A pack's PaymentIntent, or a Stripe subscription's first invoice (its confirmation secret). */
  intent: Pick<PaymentIntent, 'clientSecret' | 'paymentIntentId'>
  onBusyChange: (busy: boolean) => void
  onPaid: (purchase: Purchase) => void
}

// Stripe.js loads from Stripe's servers once, the first time a payment dialog needs it.
const stripes = new Map<string, Promise<Stripe | null>>()
function stripeFor(publishableKey: string): Promise<Stripe | null> {
  let stripe = stripes.get(publishableKey)
  if (!stripe) {
    stripe = loadStripe(publishableKey)
    stripes.set(publishableKey, stripe)
  }
  return stripe
}

/** Stripe Elements in SetupIQ's dark theme: the card never touches our servers. */
export default function StripeCardForm(props: StripeCardFormProps) {
  return (
    <Elements
      stripe={stripeFor(props.publishableKey)}
      options={{
        clientSecret: props.intent.clientSecret,
        appearance: {
          theme: 'night',
          variables: { colorPrimary: '#8b5cf6', colorBackground: '#0f0f18', colorText: '#ececf4', borderRadius: '8px' },
        },
      }}
    >
      <CheckoutForm {...props} />
    </Elements>
  )
}

function CheckoutForm({ price, intent, onBusyChange, onPaid }: StripeCardFormProps) {
  const stripe = useStripe()
  const elements = useElements()
  const confirmPurchase = useConfirmPurchase()
  const [problem, setProblem] = useState<string | null>(null)
  const [pending, setPending] = useState(false)

  const pay = async (event: FormEvent) => {
    event.preventDefault()
    if (!stripe || !elements) return
    setProblem(null)
    setPending(true)
    onBusyChange(true)
    try {
      const { error } = await stripe.confirmPayment({ elements, redirect: 'if_required' })
      if (error) {
        setProblem(error.message ?? 'An unexpected error occurred.')
        return
      }
      try {
        onPaid(await confirmPurchase(intent.paymentIntentId))
      } catch (confirmError) {
        setProblem(confirmError instanceof Error ? confirmError.message : 'An unexpected error occurred.')
      }
    } finally {
      setPending(false)
      onBusyChange(false)
    }
  }

  return (
    <form className="stack" onSubmit={pay} aria-label="Card payment">
      <PaymentElement />
      {problem && <p className="form-error" role="alert">{problem}</p>}
      <button type="submit" className="btn btn-primary btn-block" disabled={!stripe || pending}>
        {pending ? 'Processing...' : `Pay ${formatPrice(price.priceCents, price.currency)}`}
      </button>
    </form>
  )
}
