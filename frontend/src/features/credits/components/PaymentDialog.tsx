import { zodResolver } from '@hookform/resolvers/zod'
import { lazy, Suspense, useEffect, useState } from 'react'
import { useForm } from 'react-hook-form'
import { Link } from 'react-router-dom'
import { toast } from '@/lib/toast'
import { Check } from 'lucide-react'
import { ApiError } from '@/api/client'
import { Field } from '@/components/ui/Field'
import { Modal } from '@/components/ui/Modal'
import { Skeleton } from '@/components/ui/Skeleton'
import { formatPrice } from '@/lib/price'
import { createPaymentIntent, payInTestMode, type Pack, type PaymentIntent, type Price, type Purchase } from '../api'
import { creditsText, formatCardNumber, formatExpiry } from '../format'
import { testCardSchema, type TestCardInput, type TestCardValues } from '../schemas'
import { useConfirmPurchase } from '../useConfirmPurchase'

// Stripe's code loads only when a real (non-test) payment needs it.
const StripeCardForm = lazy(() => import('./StripeCardForm'))

interface PaymentDialogProps {
  /** The pack being bought; the dialog is open while there is one. */
  pack: Pack | null
  /** Stripe's publishable key, when real payments are configured. */
  publishableKey?: string | null | undefined
  onClose: () => void
}

/**
 * Buying a pack (spec 000 §4 "Purchase"): a payment intent is created when the dialog
 * opens, the card is paid, the server confirms and credits it, then a success view.
 */
export function PaymentDialog({ pack, publishableKey, onClose }: PaymentDialogProps) {
  const [busy, setBusy] = useState(false)
  return (
    <Modal
      open={pack !== null}
      onOpenChange={(open) => !open && onClose()}
      dismissible={!busy}
      title="Complete Your Purchase"
      description={pack ? `${pack.name}: ${creditsText(pack.credits)} for ${formatPrice(pack.priceCents, pack.currency)}` : undefined}
    >
      {pack && <PaymentFlow key={pack.id} pack={pack} publishableKey={publishableKey} onBusyChange={setBusy} onDone={onClose} />}
    </Modal>
  )
}

type IntentState = { status: 'creating' } | { status: 'failed' } | { status: 'ready'; intent: PaymentIntent }

function PaymentFlow({ pack, publishableKey, onBusyChange, onDone }: {
  pack: Pack
  publishableKey?: string | null | undefined
  onBusyChange: (busy: boolean) => void
  onDone: () => void
}) {
  const [intent, setIntent] = useState<IntentState>({ status: 'creating' })
  const [purchase, setPurchase] = useState<Purchase | null>(null)

  useEffect(() => {
    let current = true
    createPaymentIntent(pack.id).then(
      (created) => current && setIntent({ status: 'ready', intent: created }),
      () => {
        if (!current) return
        toast.error('Could not initiate payment. Please try again.')
        setIntent({ status: 'failed' })
      },
    )
    return () => {
      current = false
    }
  }, [pack.id])

  if (purchase) {
    return (
      <div className="stack pay-success">
        <div className="pay-success-icon" aria-hidden="true"><Check aria-hidden="true" /></div>
        <h3>Payment Successful!</h3>
        <p className="muted">
          {creditsText(purchase.creditsAdded)} added to your account. Your new balance is{' '}
          <strong>{creditsText(purchase.newBalance)}</strong>.
        </p>
        <button type="button" className="btn btn-primary btn-block" onClick={onDone} autoFocus>Done</button>
      </div>
    )
  }
  if (intent.status === 'creating') {
    return (
      <div className="stack" role="status" aria-busy="true">
        <span className="sr-only">Preparing secure payment</span>
        <Skeleton height={44} />
        <Skeleton height={44} />
        <Skeleton height={44} />
      </div>
    )
  }
  if (intent.status === 'failed') {
    return <p className="form-error" role="alert">Could not initialize payment. Please close this window and try again.</p>
  }
  return <CardForm price={pack} intent={intent.intent} publishableKey={publishableKey} onBusyChange={onBusyChange} onPaid={setPurchase} />
}

/**
 * The card form of a payment (a pack, or a Pro plan's first period): Stripe Elements when
 * the server takes cards through Stripe, the test mode's form otherwise.
 */
export function CardForm({ price, intent, publishableKey, onBusyChange, onPaid }: {
  price: Price
  intent: Pick<PaymentIntent, 'clientSecret' | 'paymentIntentId' | 'testMode'>
  publishableKey?: string | null | undefined
  onBusyChange: (busy: boolean) => void
  onPaid: (purchase: Purchase) => void
}) {
  if (!intent.testMode) {
    if (!publishableKey) return <CardProviderNotice />
    return (
      <Suspense fallback={<Skeleton height={160} />}>
        <StripeCardForm publishableKey={publishableKey} price={price} intent={intent} onBusyChange={onBusyChange} onPaid={onPaid} />
      </Suspense>
    )
  }
  return <TestCardForm price={price} paymentIntentId={intent.paymentIntentId} onBusyChange={onBusyChange} onPaid={onPaid} />
}

/** Stripe is configured on the server without a publishable key for the browser. */
function CardProviderNotice() {
  return (
    <div className="stack">
      <p className="form-error" role="alert">Card payments are not configured. No payment was taken.</p>
      <p className="muted">
        Please try again later or <Link to="/contact">contact support</Link>.
      </p>
    </div>
  )
}

function errorText(error: unknown): string {
  return error instanceof ApiError ? error.message : 'An unexpected error occurred.'
}

/**
 * The test mode's card form (no money is taken): pays `paymentIntentId` with a test card,
 * then confirms it as every purchase is confirmed (a pack, or a Pro subscription's period).
 */
export function TestCardForm({ price, paymentIntentId, onBusyChange, onPaid }: {
  price: Price
  paymentIntentId: string
  onBusyChange: (busy: boolean) => void
  onPaid: (purchase: Purchase) => void
}) {
  const confirmPurchase = useConfirmPurchase()
  const [problem, setProblem] = useState<string | null>(null)
  const { register, handleSubmit, formState } = useForm<TestCardInput, unknown, TestCardValues>({
    resolver: zodResolver(testCardSchema),
    mode: 'onTouched',
    defaultValues: { cardNumber: '', expiry: '', cvc: '' },
  })
  const cardNumber = register('cardNumber')
  const expiry = register('expiry')

  const pay = handleSubmit(async ({ cardNumber }) => {
    setProblem(null)
    onBusyChange(true)
    try {
      try {
        await payInTestMode({ paymentIntentId, cardNumber })
      } catch (error) {
        setProblem(errorText(error))
        return
      }
      try {
        onPaid(await confirmPurchase(paymentIntentId))
      } catch (error) {
        setProblem(errorText(error))
      }
    } finally {
      onBusyChange(false)
    }
  })

  return (
    <form className="stack" onSubmit={pay} noValidate aria-label="Test mode card payment">
      <div className="test-mode">
        <span className="badge badge-warning">Test mode</span>
        <p>No money is taken. Never enter a real card here; use a test card:</p>
        <ul>
          <li><code>4242 4242 4242 4242</code> = success</li>
          <li><code>4000 0000 0000 0002</code> = declined</li>
        </ul>
        <p>Any future expiry date and any 3-digit CVC work.</p>
      </div>
      <Field
        label="Card number"
        inputMode="numeric"
        autoComplete="cc-number"
        placeholder="1234 1234 1234 1234"
        autoFocus
        error={formState.errors.cardNumber?.message}
        {...cardNumber}
        onChange={(event) => {
          event.target.value = formatCardNumber(event.target.value)
          return cardNumber.onChange(event)
        }}
      />
      <div className="card-fields">
        <Field
          label="Expiry date"
          inputMode="numeric"
          autoComplete="cc-exp"
          placeholder="MM / YY"
          error={formState.errors.expiry?.message}
          {...expiry}
          onChange={(event) => {
            event.target.value = formatExpiry(event.target.value)
            return expiry.onChange(event)
          }}
        />
        <Field label="CVC" inputMode="numeric" autoComplete="cc-csc" placeholder="123" maxLength={4} error={formState.errors.cvc?.message} {...register('cvc')} />
      </div>
      {problem && <p className="form-error" role="alert">{problem}</p>}
      <button type="submit" className="btn btn-primary btn-block" disabled={formState.isSubmitting}>
        {formState.isSubmitting ? 'Processing...' : `Pay ${formatPrice(price.priceCents, price.currency)}`}
      </button>
    </form>
  )
}
