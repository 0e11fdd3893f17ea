import { useEffect, useRef, useState } from 'react'
import { toast } from '@/lib/toast'
import { Clapperboard } from 'lucide-react'
import { Skeleton } from '@/components/ui/Skeleton'
import { useAuth } from '@/lib/auth'
import { claimAd, startAd, useAdStats, useBalanceChanged } from '../api'
import { AD_SECONDS, ADS_PER_CREDIT, adErrorMessage, adRewardMessage } from '../format'

type Phase = { kind: 'idle' } | { kind: 'starting' } | { kind: 'watching'; secondsLeft: number } | { kind: 'claiming' }

/** Resolves after `seconds`, reporting each second left; rejects when aborted. */
function playAd(seconds: number, signal: AbortSignal, onTick: (secondsLeft: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    let left = seconds
    onTick(left)
    const timer = setInterval(() => {
      left -= 1
      onTick(left)
      if (left <= 0) {
        clearInterval(timer)
        resolve()
      }
    }, 1000)
    signal.addEventListener('abort', () => {
      clearInterval(timer)
      reject(signal.reason)
    })
  })
}

/** Rewarded ads (spec 000 §4 "Ad watching"): 3 ads earn 1 credit, at most 30 ads a day. */
export function WatchAdCard() {
  const { state, openAuth } = useAuth()
  const signedIn = state.status === 'authenticated'
  return (
    <section className="card watch-ad" aria-labelledby="watch-ad-title">
      <div className="watch-ad-head">
        <div className="feature-icon" aria-hidden="true"><Clapperboard aria-hidden="true" /></div>
        <div>
          <h2 id="watch-ad-title" className="card-title">Watch Ads for Free Credits</h2>
          <p className="muted">Watch {ADS_PER_CREDIT} short ads to earn 1 credit, up to 10 credits a day.</p>
        </div>
      </div>
      {state.status === 'loading' && <Skeleton height={40} />}
      {state.status === 'unauthenticated' && (
        <button type="button" className="btn btn-primary btn-block" onClick={() => openAuth('login')}>
          Sign In to Watch Ads
        </button>
      )}
      {signedIn && <AdWatcher />}
    </section>
  )
}

/** The ad player with its stats, for a signed-in user (the card and the out-of-credits dialog). */
export function AdWatcher() {
  const stats = useAdStats(true)
  const balanceChanged = useBalanceChanged()
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' })
  const aborts = useRef<AbortController | null>(null)
  useEffect(() => () => aborts.current?.abort(), [])

  const busy = phase.kind !== 'idle'
  const limitReached = stats.data?.dailyAdsRemaining === 0

  const watch = async () => {
    const controller = new AbortController()
    aborts.current = controller
    setPhase({ kind: 'starting' })
    try {
      const adToken = await startAd()
      await playAd(AD_SECONDS, controller.signal, (secondsLeft) => setPhase({ kind: 'watching', secondsLeft }))
      setPhase({ kind: 'claiming' })
      const reward = await claimAd(adToken)
      toast.success(adRewardMessage(reward))
      balanceChanged(reward.credits)
    } catch (error) {
      if (controller.signal.aborted) return
      toast.error(adErrorMessage(error))
      balanceChanged()
    } finally {
      if (!controller.signal.aborted) setPhase({ kind: 'idle' })
    }
  }

  const label = busy
    ? phase.kind === 'watching' ? `Watching... ${phase.secondsLeft}s` : phase.kind === 'claiming' ? 'Claiming...' : 'Starting...'
    : limitReached ? 'Daily Limit Reached' : 'Watch Ad'

  return (
    <div className="stack">
      <AdStatsView stats={stats} />
      {busy && <AdPlayer secondsLeft={phase.kind === 'watching' ? phase.secondsLeft : phase.kind === 'claiming' ? 0 : AD_SECONDS} />}
      <button type="button" className="btn btn-primary btn-block" onClick={watch} disabled={busy || limitReached} aria-busy={busy || undefined}>
        {label}
      </button>
    </div>
  )
}

function AdStatsView({ stats }: { stats: ReturnType<typeof useAdStats> }) {
  if (stats.error && !stats.data) return <p className="form-error" role="alert">Unable to load ad stats. Please try again later.</p>
  if (!stats.data) {
    return (
      <div role="status" aria-busy="true">
        <span className="sr-only">Loading ad stats</span>
        <Skeleton height={52} />
      </div>
    )
  }
  const { dailyAdsRemaining, potentialCreditsToday, uncreditedAds, adsUntilNextCredit } = stats.data
  return (
    <div className="ad-stats">
      <div className="ad-progress" role="img" aria-label={`${uncreditedAds} of ${ADS_PER_CREDIT} ads watched towards your next credit`}>
        {Array.from({ length: ADS_PER_CREDIT }, (_, i) => (
          <span key={i} className={i < uncreditedAds ? 'ad-dot ad-dot-done' : 'ad-dot'} />
        ))}
      </div>
      <dl className="ad-stats-list">
        <div>
          <dt>Next credit in</dt>
          <dd>{adsUntilNextCredit} {adsUntilNextCredit === 1 ? 'ad' : 'ads'}</dd>
        </div>
        <div>
          <dt>Ads left today</dt>
          <dd data-testid="ads-remaining">{dailyAdsRemaining}</dd>
        </div>
        <div>
          <dt>Credits still to earn today</dt>
          <dd>{potentialCreditsToday}</dd>
        </div>
      </dl>
    </div>
  )
}

/** The simulated ad with its countdown. */
function AdPlayer({ secondsLeft }: { secondsLeft: number }) {
  const elapsed = AD_SECONDS - secondsLeft
  return (
    <div className="ad-player">
      <p className="ad-player-label">Advertisement</p>
      <p className="ad-player-text" aria-hidden="true">{secondsLeft > 0 ? `Your reward in ${secondsLeft}s` : 'Counting your ad...'}</p>
      <div
        className="ad-bar"
        role="progressbar"
        aria-label="Ad playing"
        aria-valuemin={0}
        aria-valuemax={AD_SECONDS}
        aria-valuenow={elapsed}
        aria-valuetext={secondsLeft > 0 ? `${secondsLeft} ${secondsLeft === 1 ? 'second' : 'seconds'} left` : 'Ad finished'}
      >
        <span className="ad-bar-fill" style={{ width: `${(elapsed / AD_SECONDS) * 100}%` }} />
      </div>
    </div>
  )
}
