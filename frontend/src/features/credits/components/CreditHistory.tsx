import { Skeleton } from '@/components/ui/Skeleton'
import { useCreditHistory } from '../api'
import { ledgerReason, signedAmount } from '../format'

const DATE = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' })

/** The signed-in user's latest balance changes, newest first. */
export function CreditHistory() {
  const { data, error, isLoading } = useCreditHistory(true)
  return (
    <section className="card" aria-labelledby="credit-history-title">
      <h2 id="credit-history-title" className="card-title">Credit History</h2>
      {error && !data ? (
        <p className="form-error" role="alert">Could not load your credit history.</p>
      ) : isLoading || !data ? (
        <div className="stack" role="status" aria-busy="true">
          <span className="sr-only">Loading credit history</span>
          <Skeleton height={20} />
          <Skeleton height={20} />
          <Skeleton height={20} />
        </div>
      ) : data.length === 0 ? (
        <p className="muted">No credit activity yet.</p>
      ) : (
        <div className="table-wrap">
          <table className="history-table">
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Activity</th>
                <th scope="col" className="num">Change</th>
                <th scope="col" className="num">Balance</th>
              </tr>
            </thead>
            <tbody>
              {data.map((entry) => (
                <tr key={entry.id}>
                  <td><time dateTime={entry.createdAt}>{DATE.format(new Date(entry.createdAt))}</time></td>
                  <td>{ledgerReason(entry.reason)}</td>
                  <td className={entry.amount >= 0 ? 'num amount-in' : 'num amount-out'}>{signedAmount(entry.amount)}</td>
                  <td className="num">{entry.balanceAfter}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}
