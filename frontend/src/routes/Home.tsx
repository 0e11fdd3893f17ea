import { lazy, memo, Suspense, useEffect, useRef, useState } from 'react'
import { Link, useSearchParams } from 'react-router-dom'
import { Armchair, BrushCleaning, Cable, Camera, Lightbulb, ListChecks, Lock, Monitor, ShoppingCart, Sparkles, Target, ThumbsUp, Trophy, Zap } from 'lucide-react'
import { useAuth } from '@/lib/auth'
import { AnalyzeForm } from '@/features/analysis/components/AnalyzeForm'
import { usePacks, usePro } from '@/features/credits/api'
import { TopSetupsThisWeek } from '@/features/community/components/TopSetupsThisWeek'
import { PRO_BALANCE } from '@/lib/balance'
import { plural } from '@/lib/plural'
import { formatPrice } from '@/lib/price'
import { usePageTitle } from '@/lib/usePageTitle'

// Only a member out of credits sees it: it loads when it first opens.
const OutOfCreditsDialog = lazy(() => import('@/features/credits/components/OutOfCreditsDialog').then((m) => ({ default: m.OutOfCreditsDialog })))
// The plan choice and card form load when "Upgrade to Pro" is first pressed.
const ProDialog = lazy(() => import('@/features/credits/components/ProDialog').then((m) => ({ default: m.ProDialog })))

const CATEGORIES = [
  { icon: Cable, name: 'Cable Management', text: 'How well your cables are routed, bundled and hidden from view.' },
  { icon: Lightbulb, name: 'RGB/Lighting', text: 'Ambient light, RGB harmony and how easy the lighting is on your eyes.' },
  { icon: BrushCleaning, name: 'Desk Cleanliness', text: 'Clutter, free space and how organised your desk surface is.' },
  { icon: Monitor, name: 'Monitor Setup', text: 'Screen size, height, viewing distance and multi-monitor alignment.' },
  { icon: Armchair, name: 'Chair & Comfort', text: 'Seating, posture support and ergonomics for long sessions.' },
  { icon: Sparkles, name: 'Aesthetic Vibe', text: 'The overall look: theme, colour palette and personality.' },
] as const

const EXTRAS = [
  {
    icon: ListChecks,
    name: 'Cable Inventory',
    text: 'Every visible cable listed by type (monitor, keyboard, mouse, power, audio and more), where it runs and whether it adds to the look.',
  },
  {
    icon: ShoppingCart,
    name: 'Upgrade Suggestions',
    text: 'Concrete fixes for each weak spot, with budget, balanced and premium product picks for every suggestion.',
  },
] as const

const STEPS = [
  { title: 'Upload your setup', text: 'Snap a photo (JPEG, PNG or WEBP, up to 10MB) or describe your setup in a few sentences.' },
  { title: 'The AI analyzes it', text: 'Six categories are scored and combined into your SetupIQ Score out of 10, in seconds.' },
  { title: 'Get your upgrade plan', text: 'Review your scores, cable inventory and upgrade picks, then share the result or publish it to the community.' },
] as const

const FAQ = [
  {
    question: 'How much does an analysis cost?',
    answer: 'One credit per analysis. Visitors get one free analysis without an account, and new accounts start with free credits.',
  },
  {
    question: 'How do I get more credits?',
    answer: 'Watch short ads (3 ads earn 1 credit, up to 10 credits a day) or buy a credit pack on the Get Credits page.',
  },
  {
    question: 'What kind of photo works best?',
    answer: 'A well-lit, straight-on shot that shows your whole desk, monitors and chair gives the most accurate scores.',
  },
] as const

const COMMUNITY = [
  { icon: Camera, title: 'Community Feed', text: 'Browse setups from gamers everywhere, see their scores and get inspired for your next upgrade.' },
  { icon: ThumbsUp, title: 'Votes', text: 'Upvote the setups you love. The best builds rise to the top of the feed.' },
  { icon: Trophy, title: 'Leaderboards', text: 'Weekly, monthly and all-time rankings of the top setups and the creators behind them.' },
] as const

export default function Home() {
  usePageTitle()
  // "Re-rate this setup" (a result, a My Setups card) opens the form linked to that analysis.
  const [params, setParams] = useSearchParams()
  const rerate = Number(params.get('rerate'))
  const previousAnalysisId = Number.isSafeInteger(rerate) && rerate > 0 ? rerate : undefined
  const analyzer = useRef<HTMLElement>(null)
  useEffect(() => {
    if (previousAnalysisId !== undefined) analyzer.current?.scrollIntoView({ block: 'start' })
  }, [previousAnalysisId])
  return (
    <div className="container">
      <Hero />

      <section ref={analyzer} className="card analyzer-card" aria-labelledby="analyzer-title">
        <h2 id="analyzer-title" className="card-title">{previousAnalysisId !== undefined ? 'Re-rate your setup' : 'Get your setup rated'}</h2>
        <AnalyzeForm
          creditsDialog={OutOfCreditsDialog}
          previousAnalysisId={previousAnalysisId}
          onStopRerating={() => setParams({}, { replace: true })}
        />
      </section>

      <Explainer />

      <Pricing />
    </div>
  )
}

/**
 * The page's parts that follow data each read their own (the session, the prices): when an
 * answer arrives after the first paint, only its part renders again, not the whole page (on
 * a slow phone each render of the page is main-thread time the visitor waits through).
 */
function Hero() {
  const { state, user, openAuth } = useAuth()
  const signedOut = state.status === 'unauthenticated'
  // Until the session answers, the signed-out extras of the hero hold their place unseen: a
  // first visit is signed out, and then nothing below them moves when that is known.
  const checking = state.status === 'loading'
  return (
    <header className="hero">
      <span className="badge eyebrow">AI-powered setup analysis</span>
      <h1>
        Get Your Gaming Setup <span className="gradient-text">Rated by AI</span>
      </h1>
      <p className="lead">
        Upload a photo of your battlestation and get a SetupIQ Score out of 10, feedback for every part of your desk and
        upgrade picks that actually fit your setup.
      </p>
      <div className="row hero-actions">
        {(signedOut || checking) && (
          <button type="button" className={checking ? 'btn btn-primary reserve' : 'btn btn-primary'} onClick={() => openAuth('register')}>
            Get Started
          </button>
        )}
        <Link to="/#help" className="btn btn-secondary">How It Works</Link>
      </div>
      <ul className="trust-band" aria-label="Why SetupIQ">
        {user && (
          <li><span className="badge badge-success">{user.isPro ? PRO_BALANCE : `Credits: ${user.credits}`}</span></li>
        )}
        {(signedOut || checking) && (
          <li className={checking ? 'reserve' : undefined}><span className="badge">Sign up to get 3 free credits</span></li>
        )}
        <li><Lock aria-hidden="true" /> Processed securely</li>
        <li><Zap aria-hidden="true" /> Results in seconds</li>
        <li><Target aria-hidden="true" /> Six categories rated</li>
      </ul>
    </header>
  )
}

/** Free, the credit packs and Pro, with the server's prices (the one source, DESIGN.md §5). */
function Pricing() {
  const { state, user, openAuth } = useAuth()
  const packs = usePacks().data?.packs ?? []
  const monthly = usePro().data?.plans.find((plan) => plan.plan === 'monthly')
  const [buyingPro, setBuyingPro] = useState(false)
  const cheapest = packs.reduce<number | null>((min, p) => (min === null || p.priceCents < min ? p.priceCents : min), null)
  const signedOut = state.status === 'unauthenticated'
  return (
    <section id="pricing" className="section below-fold" aria-labelledby="pricing-title">
      <h2 id="pricing-title" className="section-title">Pricing</h2>
      <div className="grid grid-3 pricing">
        <div className="card plan">
          <h3>Free</h3>
          <p className="price">$0</p>
          <ul className="check-list">
            <li>3 free credits when you sign up</li>
            <li>Watch ads: 3 ads = 1 credit</li>
            <li>Up to 10 credits a day from ads</li>
            <li>1 credit per analysis</li>
          </ul>
          {signedOut ? (
            <button type="button" className="btn btn-secondary btn-block" onClick={() => openAuth('register')}>
              Get Started
            </button>
          ) : (
            <Link to="/buy-credits" className="btn btn-secondary btn-block">Watch Ads for Credits</Link>
          )}
        </div>

        <div className="card plan plan-featured">
          <h3>Credit Packs</h3>
          <p className="price">
            <span className="price-from">from</span> {cheapest === null ? '…' : formatPrice(cheapest)}
          </p>
          <ul className="pack-list">
            {packs.map((pack) => (
              <li key={pack.id}>
                <span>
                  <strong>{pack.name.replace(/ Pack$/, '')}</strong> · {plural(pack.credits, 'credit')}
                </span>
                <strong>{formatPrice(pack.priceCents, pack.currency)}</strong>
              </li>
            ))}
          </ul>
          <Link to="/buy-credits" className="btn btn-primary btn-block">Buy Credits</Link>
        </div>

        <div className="card plan">
          <h3>
            Pro <span className="badge badge-pro" aria-hidden="true">PRO</span>
          </h3>
          <p className="price">
            {monthly ? <>{formatPrice(monthly.priceCents, monthly.currency)}<span className="price-from"> / month</span></> : '…'}
          </p>
          <ul className="check-list">
            <li>Unlimited analyses: no credit needed</li>
            <li>PDF export of your reports</li>
            <li>Pro badge and glowing avatar</li>
          </ul>
          <p className="hint">Or a year at a lower price. Cancel any time: Pro stays until the period you paid ends.</p>
          {user?.isPro ? (
            <Link to="/profile" className="btn btn-ghost btn-block">You're Pro: See Membership</Link>
          ) : signedOut ? (
            <button type="button" className="btn btn-ghost btn-block" onClick={() => openAuth('register')}>Sign Up for Pro</button>
          ) : (
            <button type="button" className="btn btn-ghost btn-block" onClick={() => setBuyingPro(true)} disabled={!user}>Upgrade to Pro</button>
          )}
          {buyingPro && (
            <Suspense fallback={null}>
              {/* The card shows the monthly price: the dialog opens on that plan. */}
              <ProDialog open={buyingPro} onOpenChange={setBuyingPro} plan="monthly" />
            </Suspense>
          )}
        </div>
      </div>
    </section>
  )
}

/**
 * What is rated, how it works and the community: the same on every render, so kept out of
 * the re-renders of the page (the session and the prices arrive after the first paint, and
 * each re-render of this long list is main-thread time on a slow phone).
 */
const Explainer = memo(function Explainer() {
  return (
    <>
      <section id="features" className="section below-fold" aria-labelledby="features-title">
        <h2 id="features-title" className="section-title">What Gets Rated</h2>
        <p className="muted center">
          Your SetupIQ Score (1 to 10) is built from six categories, each with its own score and comment.
        </p>
        <ul className="grid grid-six plain-list">
          {CATEGORIES.map((c) => (
            <li key={c.name} className="card card-hover">
              <div className="feature-icon" aria-hidden="true"><c.icon aria-hidden="true" /></div>
              <h3>{c.name}</h3>
              <p className="muted">{c.text}</p>
            </li>
          ))}
        </ul>
        <ul className="grid grid-2 plain-list extras">
          {EXTRAS.map((e) => (
            <li key={e.name} className="card card-hover">
              <div className="feature-icon" aria-hidden="true"><e.icon aria-hidden="true" /></div>
              <h3>{e.name}</h3>
              <p className="muted">{e.text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section id="help" className="section below-fold" aria-labelledby="help-title">
        <h2 id="help-title" className="section-title">How It Works</h2>
        <ol className="grid grid-3 plain-list">
          {STEPS.map((step, index) => (
            <li key={step.title} className="card">
              <span className="step-number" aria-hidden="true">{index + 1}</span>
              <h3>
                <span className="sr-only">Step {index + 1}: </span>
                {step.title}
              </h3>
              <p className="muted">{step.text}</p>
            </li>
          ))}
        </ol>
        <div className="page-narrow faq">
          <h3>Frequently Asked Questions</h3>
          <dl className="stack">
            {FAQ.map((item) => (
              <div key={item.question} className="card">
                <dt>{item.question}</dt>
                <dd className="muted">{item.answer}</dd>
              </div>
            ))}
          </dl>
          <p className="muted center">
            Still curious? <Link to="/contact">Contact us</Link> or read the <Link to="/tips">setup guides</Link>.
          </p>
        </div>
      </section>

      <section id="community" className="section below-fold" aria-labelledby="community-title">
        <h2 id="community-title" className="section-title">Join the Community</h2>
        <ul className="grid grid-3 plain-list">
          {COMMUNITY.map((c) => (
            <li key={c.title} className="card card-hover">
              <div className="feature-icon" aria-hidden="true"><c.icon aria-hidden="true" /></div>
              <h3>{c.title}</h3>
              <p className="muted">{c.text}</p>
            </li>
          ))}
        </ul>
        <TopSetupsThisWeek />
        <div className="card rigpage-teaser">
          <div>
            <span className="badge eyebrow">New</span>
            <h3>Your RigPage</h3>
            <p className="muted">
              A link-in-bio page for gamers: your best-rated setup, your socials and your custom links at one address you
              can share anywhere.
            </p>
          </div>
          <div className="row">
            <Link to="/community" className="btn btn-secondary">Explore the Community</Link>
            <Link to="/rigpage-config" className="btn btn-primary">Create Your RigPage</Link>
          </div>
        </div>
      </section>
    </>
  )
})
