import { useAuth } from '@/lib/auth'
import { Skeleton } from '@/components/ui/Skeleton'
import { formatPrice } from '@/lib/price'
import { usePacks, type Pack } from '../api'
import { pricePerCredit } from '../format'

/** The credit packs as the server lists them; buying needs an account. */
/** Why a visitor who clicked Buy Now is asked to sign in. */
const BUY_SIGN_IN = 'Log in or create a free account to buy credits: they are added to your account, so you can use them on any device.'

export function PacksGrid({ onBuy }: { onBuy: (pack: Pack) => void }) {
  const { state, openAuth } = useAuth()
  const { data, error, isLoading, mutate } = usePacks()

  if (error && !data) {
    return (
      <div className="form-error row" role="alert">
        <span>Could not load the credit packs.</span>
        <button type="button" className="btn btn-secondary btn-sm" onClick={() => void mutate()}>Try Again</button>
      </div>
    )
  }
  if (isLoading || !data) {
    return (
      <div className="grid grid-3" role="status" aria-busy="true">
        <span className="sr-only">Loading credit packs</span>
        {[0, 1, 2].map((i) => (
          <div key={i} className="card stack">
            <Skeleton height={24} width="60%" />
            <Skeleton height={40} width="40%" />
            <Skeleton height={40} />
          </div>
        ))}
      </div>
    )
  }

  const buy = (pack: Pack) => (state.status === 'authenticated' ? onBuy(pack) : openAuth('login', BUY_SIGN_IN))
  return (
    <ul className="grid grid-3 plain-list packs">
      {data.packs.map((pack) => (
        <li key={pack.id} className={pack.popular ? 'card plan pack plan-featured' : 'card plan pack'} data-testid={`pack-${pack.id}`}>
          {pack.popular && <span className="badge pack-ribbon">Most Popular</span>}
          <h3>{pack.name}</h3>
          <p className="pack-credits">
            <strong>{pack.credits}</strong> {pack.credits === 1 ? 'credit' : 'credits'}
          </p>
          <p className="price">{formatPrice(pack.priceCents, pack.currency)}</p>
          <p className="muted pack-unit">{pricePerCredit(pack.priceCents, pack.credits, pack.currency)} per credit</p>
          <button type="button" className={pack.popular ? 'btn btn-primary btn-block' : 'btn btn-secondary btn-block'} onClick={() => buy(pack)} aria-label={`Buy Now: ${pack.name}`} disabled={state.status === 'loading'}>
            Buy Now
          </button>
        </li>
      ))}
    </ul>
  )
}
