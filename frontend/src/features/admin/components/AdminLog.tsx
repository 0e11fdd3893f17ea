import { useId } from 'react'
import { useAdminLog } from '../api'
import { actionLabel, formatDateTime, targetLabel } from '../logic'
import { TableSkeleton } from './TopProducts'

/** 'Showing N of T' and, while there is more, 'Load more': the foot of a list read a page at a time. */
export function LoadMore({ shown, total, loading, onMore }: { shown: number; total: number; loading: boolean; onMore: () => void }) {
  return (
    <p className="row">
      <span className="hint">Showing {shown} of {total}</span>
      {shown < total && (
        <button type="button" className="btn btn-secondary btn-sm" onClick={onMore} disabled={loading}>
          {loading ? 'Loading...' : 'Load more'}
        </button>
      )}
    </p>
  )
}

/** 'Admin Log': what admins did, newest first, 20 entries at a time. */
export function AdminLog() {
  const id = useId()
  const { data, error, isLoading, isValidating, size, setSize } = useAdminLog()
  const entries = data?.flatMap((page) => page.entries) ?? []
  const total = data?.[data.length - 1]?.total ?? 0
  const loadingMore = isValidating && data !== undefined && data.length < size
  return (
    <section className="card stack" aria-labelledby={id}>
      <h2 id={id} className="admin-h2">Admin Log</h2>
      {isLoading && !data ? (
        <TableSkeleton rows={3} />
      ) : error && !data ? (
        <p className="muted">Failed to load the admin log.</p>
      ) : entries.length === 0 ? (
        <p className="muted">No admin actions yet.</p>
      ) : (
        <>
          <div className="table-wrap">
            <table className="history-table">
              <caption className="sr-only">Admin actions, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Admin</th>
                  <th scope="col">Action</th>
                  <th scope="col">Target</th>
                  <th scope="col">Details</th>
                </tr>
              </thead>
              <tbody>
                {entries.map((entry) => (
                  <tr key={entry.id}>
                    <td><time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt)}</time></td>
                    <td>{entry.adminName}</td>
                    <td>{actionLabel(entry.action)}</td>
                    <td>{targetLabel(entry.targetType, entry.targetId)}</td>
                    <td className="admin-details">{entry.details || <span className="muted">—</span>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <LoadMore shown={entries.length} total={total} loading={loadingMore} onMore={() => void setSize(size + 1)} />
        </>
      )}
    </section>
  )
}
