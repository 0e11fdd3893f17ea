import { Link } from 'react-router-dom'
import { Skeleton } from '@/components/ui/Skeleton'
import { shortDate } from '@/lib/relativeTime'
import { formatPrice } from '@/lib/price'
import { usePayments, type Payment } from '../api'

/** How a payment stands, in words. */
function statusOf(payment: Payment): string {
  if (payment.paidAt) return payment.provider === 'test' ? 'Paid (test mode)' : 'Paid'
  if (payment.status === 'processing') return 'Processing'
  if (payment.status === 'canceled') return 'Canceled'
  if (payment.status === 'refund_due') return 'Being refunded'
  if (payment.status === 'refunded') return 'Refunded'
  return 'Not paid'
}

/** The signed-in member's card payments, newest first, each paid one with its receipt. */
export function PaymentHistory() {
  const { data, error } = usePayments()
  if (error && !data) return <p className="form-error" role="alert">Could not load your payments.</p>
  if (!data) {
    return (
      <div role="status" aria-busy="true">
        <span className="sr-only">Loading payments</span>
        <Skeleton height={20} />
      </div>
    )
  }
  if (data.length === 0) return <p className="muted">No payments yet. Credit packs you buy are listed here with their receipts.</p>
  return (
    <div className="table-wrap">
      <table className="history-table">
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">Item</th>
            <th scope="col" className="num">Amount</th>
            <th scope="col">Status</th>
            <th scope="col"><span className="sr-only">Receipt</span></th>
          </tr>
        </thead>
        <tbody>
          {data.map((payment) => (
            <tr key={payment.reference}>
              <td><time dateTime={payment.createdAt}>{shortDate(payment.paidAt ?? payment.createdAt)}</time></td>
              <td>{payment.description}</td>
              <td className="num">{formatPrice(payment.amountCents, payment.currency)}</td>
              <td>{statusOf(payment)}</td>
              <td>
                {payment.paidAt && (
                  <Link to={`/receipts/${encodeURIComponent(payment.reference)}`} aria-label={`Receipt for ${payment.description}`}>Receipt</Link>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
