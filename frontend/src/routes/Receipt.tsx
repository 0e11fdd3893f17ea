import useSWR from 'swr'
import { Link, useParams } from 'react-router-dom'
import { Printer, ReceiptText } from 'lucide-react'
import { ApiError, messageOf } from '@/api/client'
import { useAuth } from '@/lib/auth'
import { useLegal } from '@/components/ui/LegalDetails'
import { Skeleton } from '@/components/ui/Skeleton'
import { fetchReceipt } from '@/features/credits/api'
import { formatPrice } from '@/lib/price'
import { usePageTitle } from '@/lib/usePageTitle'

const DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' })

/** `/receipts/:reference`: one paid payment of the signed-in member, laid out to print. */
export default function Receipt() {
  usePageTitle('Receipt')
  const { reference = '' } = useParams()
  const { state } = useAuth()
  const signedIn = state.status === 'authenticated'
  const { data: payment, error } = useSWR(signedIn ? ['receipt', reference] : null, () => fetchReceipt(reference), { shouldRetryOnError: false })
  const legal = useLegal()

  if (state.status === 'unauthenticated') {
    return (
      <div className="container state">
        <h1>Please Log In</h1>
        <p className="muted">Log in to see your receipts.</p>
        <Link to="/login" className="btn btn-primary">Log In</Link>
      </div>
    )
  }
  if (error) {
    const missing = error instanceof ApiError && error.status === 404
    return (
      <div className="container state">
        <h1>{missing ? 'Receipt Not Found' : 'Something Went Wrong'}</h1>
        <p className="muted">{missing ? 'There is no paid purchase of yours with this receipt number.' : messageOf(error, 'Could not load this receipt.')}</p>
        <Link to="/profile" className="btn btn-primary">Back to Profile</Link>
      </div>
    )
  }
  if (!payment || state.status !== 'authenticated') {
    return (
      <div className="container page-narrow stack" role="status" aria-busy="true">
        <span className="sr-only">Loading receipt</span>
        <Skeleton height={32} width="50%" />
        <Skeleton height={220} />
      </div>
    )
  }
  const user = state.user
  const seller = legal?.operator ?? 'SetupIQ'
  return (
    // The page keeps its margins around the card (a card that is itself the container meets
    // the screen's edges on a phone).
    <div className="container page-narrow">
      <article className="receipt card stack" aria-labelledby="receipt-title">
        <header className="row" style={{ justifyContent: 'space-between' }}>
          <h1 id="receipt-title" className="row" style={{ margin: 0 }}><ReceiptText aria-hidden="true" /> Receipt</h1>
          <button type="button" className="btn btn-secondary no-print" onClick={() => window.print()}>
            <Printer aria-hidden="true" size={18} /> Print
          </button>
        </header>
        <dl className="receipt-details">
          <div><dt>Receipt number</dt><dd data-testid="receipt-number">{payment.reference}</dd></div>
          <div><dt>Date paid</dt><dd>{DATE.format(new Date(payment.paidAt ?? payment.createdAt))} UTC</dd></div>
          <div><dt>Billed to</dt><dd>{user.displayName} ({user.email})</dd></div>
          <div>
            <dt>Sold by</dt>
            <dd>
              {seller}
              {legal?.address.map((line) => <span key={line}><br />{line}</span>)}
              {legal?.vatId && <><br />VAT ID {legal.vatId}</>}
            </dd>
          </div>
          <div><dt>Item</dt><dd>{payment.description}</dd></div>
          <div><dt>Amount paid</dt><dd className="receipt-total">{formatPrice(payment.amountCents, payment.currency)}</dd></div>
          <div><dt>Payment</dt><dd>{payment.provider === 'test' ? 'Test mode: no card was charged' : 'Card, through Stripe'}</dd></div>
        </dl>
        <p className="muted no-print"><Link to="/profile">Back to your profile</Link></p>
      </article>
    </div>
  )
}
