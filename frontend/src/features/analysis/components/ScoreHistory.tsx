import { Suspense, lazy, useId } from 'react'
import { Skeleton } from '@/components/ui/Skeleton'
import { useMyAnalyses } from '../api'
import { scoreChains, scoreHistory, scoreHistorySummary } from '../history'

const ScoreHistoryChart = lazy(() => import('./ScoreHistoryChart'))

/**
 * The profile's score history: the signed-in user's SetupIQ Scores over time, in words at
 * once and as a chart once its code has loaded: each re-rated setup is one line (its score
 * over time), the other analyses are points. Nothing while there are no analyses (the
 * Setup History says so), or when they failed to load (it says that too).
 */
export function ScoreHistory() {
  const id = useId()
  const { data } = useMyAnalyses(true)
  const points = scoreHistory(data?.analyses ?? [])
  const { chains, singles } = scoreChains(data?.analyses ?? [])
  if (points.length === 0) return null
  return (
    <section className="card stack" aria-labelledby={`${id}-title`} data-testid="score-history">
      <h2 id={`${id}-title`}>Score History</h2>
      <Suspense
        fallback={
          <div role="status" aria-busy="true">
            <Skeleton height={220} />
            <p className="hint">{scoreHistorySummary(points)}</p>
          </div>
        }
      >
        <ScoreHistoryChart points={points} chains={chains} singles={singles} />
      </Suspense>
    </section>
  )
}
