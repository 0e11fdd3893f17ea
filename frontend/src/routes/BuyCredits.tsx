import { useState } from 'react'
import { Link } from 'react-router-dom'
import { ShieldCheck } from 'lucide-react'
import { AdSlot } from '@/app/layout/AdSlot'
import { Skeleton } from '@/components/ui/Skeleton'
import { useAuth } from '@/lib/auth'
import { usePacks, type Pack } from '@/features/credits/api'
import { CreditHistory } from '@/features/credits/components/CreditHistory'
import { PacksGrid } from '@/features/credits/components/PacksGrid'
import { PaymentDialog } from '@/features/credits/components/PaymentDialog'
import { WatchAdCard } from '@/features/credits/components/WatchAdCard'
import { creditsText } from '@/features/credits/format'
import { usePageTitle } from '@/lib/usePageTitle'

/** Buy Credits (spec 000 §2): balance, rewarded ads, packs, security note, support. */
export default function BuyCredits() {
  usePageTitle('Buy Credits')
  const { user } = useAuth()
  const packs = usePacks()
  const [buying, setBuying] = useState<Pack | null>(null)

  return (
    <div className="container stack credits-page">
      <header className="credits-hero">
        <span className="badge eyebrow">Credits</span>
        <h1>Get Credits</h1>
        <p className="lead muted">
          Every setup analysis costs 1 credit. Earn credits for free by watching short ads, or pick a pack and keep
          analyzing.
        </p>
      </header>

      <div className="grid grid-2 credits-top">
        <BalanceCard />
        <WatchAdCard />
      </div>

      <section className="section credits-section" aria-labelledby="packs-title">
        <h2 id="packs-title" className="section-title">Credit Packs</h2>
        <p className="muted center">One-time purchases, no subscription. Pick the pack that fits how often you analyze.</p>
        {packs.data?.testMode && (
          <p className="center">
            <span className="badge badge-warning">Test mode</span>{' '}
            <span className="muted">Payments are simulated: no money is taken.</span>
          </p>
        )}
        <PacksGrid onBuy={setBuying} />
      </section>

      <section className="card trust-card" aria-labelledby="security-title">
        <div className="feature-icon" aria-hidden="true"><ShieldCheck aria-hidden="true" /></div>
        <div>
          <h2 id="security-title" className="card-title">Secure Payments</h2>
          <p className="muted">
            Payments are processed by our card payment provider over an encrypted connection. We never see or store
            your card number.
          </p>
        </div>
      </section>

      <AdSlot slot="buy-credits" />

      <section className="card support-card" aria-labelledby="support-title">
        <div>
          <h2 id="support-title" className="card-title">Questions about credits?</h2>
          <p className="muted">Something wrong with a purchase or a reward? Our support team is happy to help.</p>
        </div>
        <Link to="/contact" className="btn btn-secondary">Contact Support</Link>
      </section>

      {user && <CreditHistory />}

      <PaymentDialog pack={buying} publishableKey={packs.data?.publishableKey} onClose={() => setBuying(null)} />
    </div>
  )
}

function CreditFacts() {
  return (
    <ul className="check-list">
      <li>1 credit = 1 AI setup analysis</li>
      <li>3 watched ads = 1 free credit</li>
      <li>Up to 10 free credits a day from ads</li>
    </ul>
  )
}

function BalanceCard() {
  const { state, openAuth } = useAuth()
  return (
    <section className="card balance-card" aria-labelledby="balance-title">
      <h2 id="balance-title" className="card-title">Your Balance</h2>
      {state.status === 'loading' && (
        <div role="status" aria-busy="true">
          <span className="sr-only">Loading your balance</span>
          <Skeleton height={56} width="60%" />
        </div>
      )}
      {state.status === 'authenticated' && (
        <>
          <p className="balance-value" data-testid="credit-balance">{creditsText(state.user.credits)}</p>
          <CreditFacts />
          <Link to="/" className="btn btn-secondary">Analyze a Setup</Link>
        </>
      )}
      {state.status === 'unauthenticated' && (
        <>
          <p className="balance-signup">Sign up to get 3 free credits</p>
          <p className="muted">Create a free account to keep your credits, earn more from ads and buy packs.</p>
          <CreditFacts />
          <div className="row">
            <button type="button" className="btn btn-primary" onClick={() => openAuth('register')}>Get Started</button>
            <button type="button" className="btn btn-ghost" onClick={() => openAuth('login')}>Log In</button>
          </div>
        </>
      )}
    </section>
  )
}
