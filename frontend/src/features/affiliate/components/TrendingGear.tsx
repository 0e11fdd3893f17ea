import { Star } from 'lucide-react'
import { Skeleton } from '@/components/ui/Skeleton'
import { formatPrice } from '@/lib/price'
import { useTrendingGear } from '../api'
import { ProductLink } from './ProductLink'

/** The three top trending products, each with a tracked affiliate link. */
export function TrendingGear() {
  const { data, error } = useTrendingGear()
  return (
    <section className="section results-section" aria-labelledby="trending-title">
      <h2 id="trending-title">Trending Gear</h2>
      {error && !data ? (
        <p className="muted">Trending gear is not available right now.</p>
      ) : !data ? (
        <div className="grid grid-3" role="status" aria-busy="true">
          <span className="sr-only">Loading trending gear</span>
          <Skeleton height={140} />
          <Skeleton height={140} />
          <Skeleton height={140} />
        </div>
      ) : (
        <ul className="grid grid-3 plain-list">
          {data.slice(0, 3).map((item) => (
            <li key={item.productId} className="card trending-card">
              <span className="badge">{item.category}</span>
              <h3>{item.name}</h3>
              <p className="row trending-meta">
                <strong>{formatPrice(item.priceCents)}</strong>
                <span className="trending-rating" role="img" aria-label={`Rated ${item.rating} out of 5`}><Star aria-hidden="true" /> {item.rating.toFixed(1)}</span>
              </p>
              <ProductLink product={item} context="Trending Gear" />
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
