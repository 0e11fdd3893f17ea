import { useId } from 'react'
import { Skeleton } from '@/components/ui/Skeleton'
import { useTopProducts } from '../api'
import { formatCount, formatUsd, type Period } from '../logic'

/** 'Top Performing Products': the 5 most clicked of the period (§2, §8). */
export function TopProducts({ period }: { period: Period }) {
  const id = useId()
  const { data, error, isLoading } = useTopProducts(period)
  return (
    <section className="card stack" aria-labelledby={id}>
      <h2 id={id} className="admin-h2">Top Performing Products</h2>
      {isLoading && !data ? (
        <TableSkeleton />
      ) : error && !data ? (
        <p className="muted">Failed to load products.</p>
      ) : !data || data.length === 0 ? (
        <p className="muted">No product data available.</p>
      ) : (
        <div className="table-wrap">
          <table className="history-table" aria-labelledby={id}>
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Product</th>
                <th scope="col">Category</th>
                <th scope="col" className="num">Clicks</th>
                <th scope="col" className="num">Revenue</th>
              </tr>
            </thead>
            <tbody>
              {data.map((product, index) => (
                <tr key={product.id}>
                  <td>{index + 1}</td>
                  <th scope="row" className="admin-row-head">{product.name}</th>
                  <td>{product.category}</td>
                  <td className="num">{formatCount(product.clickCount)}</td>
                  <td className="num">{formatUsd(product.estimatedRevenue)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}

export function TableSkeleton({ rows = 5 }: { rows?: number }) {
  return (
    <div className="stack" aria-hidden="true">
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} height={28} />
      ))}
    </div>
  )
}
