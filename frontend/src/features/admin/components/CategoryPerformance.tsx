import { useId, useState } from 'react'
import { ChevronDown, ChevronsUpDown, ChevronUp } from 'lucide-react'
import { useCategories } from '../api'
import { CATEGORY_COLUMNS, formatCount, formatUsd, sortDirection, type CategorySort, type Period } from '../logic'
import { TableSkeleton } from './TopProducts'

/** 'Category Performance': each header sorts the table on the server (sortBy). */
export function CategoryPerformance({ period }: { period: Period }) {
  const id = useId()
  const [sortBy, setSortBy] = useState<CategorySort>('clickCount')
  const { data, error, isLoading } = useCategories(period, sortBy)
  return (
    <section className="card stack" aria-labelledby={id}>
      <h2 id={id} className="admin-h2">Category Performance</h2>
      {isLoading && !data ? (
        <TableSkeleton />
      ) : error && !data ? (
        <p className="muted">Failed to load categories.</p>
      ) : !data || data.length === 0 ? (
        <p className="muted">No category data available.</p>
      ) : (
        <div className="table-wrap">
          <table className="history-table" aria-labelledby={id}>
            <thead>
              <tr>
                {CATEGORY_COLUMNS.map((column) => {
                  const active = column.key === sortBy
                  return (
                    <th key={column.key} scope="col" className={column.numeric ? 'num' : undefined} aria-sort={active ? sortDirection(column.key) : undefined}>
                      <button type="button" className="admin-sort" onClick={() => setSortBy(column.key)}>
                        {column.label}
                        <span aria-hidden="true" className="admin-sort-mark">{active ? (sortDirection(column.key) === 'ascending' ? <ChevronUp aria-hidden="true" /> : <ChevronDown aria-hidden="true" />) : <ChevronsUpDown aria-hidden="true" />}</span>
                      </button>
                    </th>
                  )
                })}
              </tr>
            </thead>
            <tbody>
              {data.map((row) => (
                <tr key={row.category}>
                  <th scope="row" className="admin-row-head">{row.category}</th>
                  <td className="num">{formatCount(row.clickCount)}</td>
                  <td className="num">{formatCount(row.uniqueSessions)}</td>
                  <td className="num">{formatUsd(row.estimatedRevenue)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}
