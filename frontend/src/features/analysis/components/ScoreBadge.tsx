import { formatScore, ratingBand } from '@/lib/ratingBands'

/** The SetupIQ Score with its emoji, label, percentile and band colour. */
export function ScoreBadge({ score }: { score: number }) {
  const band = ratingBand(score)
  return (
    <div className={`score-badge score-${band.color}`} data-testid="score-badge">
      <span className="score-emoji" aria-hidden="true">{band.emoji}</span>
      <p className="score-value">
        <span className="sr-only">SetupIQ Score: </span>
        <strong data-testid="overall-score">{formatScore(score)}</strong>
        <span className="score-scale">/10</span>
      </p>
      <p className="score-label">{band.label}</p>
      <p className="score-percentile">{band.percentile} of setups</p>
    </div>
  )
}
