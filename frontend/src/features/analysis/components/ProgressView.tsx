import { ArrowRight } from 'lucide-react'
import type { Schemas } from '@/api/client'
import { categoryScoreText, formatScore } from '@/lib/ratingBands'
import type { AnalysisResult } from '../api'
import type { ReportInput } from '../report'
import type { Voice } from '../voice'

export type Progress = Schemas['ProgressDto']

/** The overall delta with its sign: "+2.6", "−0.4", "±0.0" (a minus sign, not a hyphen). */
export function signedDelta(delta: number): string {
  if (delta > 0) return `+${delta.toFixed(1)}`
  if (delta < 0) return `\u2212${Math.abs(delta).toFixed(1)}`
  return '\u00b10.0'
}

/** Up (green), down (red) or the same (muted). */
export function deltaClass(delta: number): 'up' | 'down' | 'same' {
  if (delta > 0) return 'up'
  if (delta < 0) return 'down'
  return 'same'
}

/** One side of the comparison: the photo, or the description, or (deleted since) neither. */
function Side({ label, score, photo, text }: { label: string; score: number; photo?: string | null | undefined; text?: string | null | undefined }) {
  return (
    <figure className="progress-side" data-testid={`progress-${label.toLowerCase()}`}>
      {photo ? (
        <img className="progress-photo" src={photo} alt={`Your setup ${label.toLowerCase()}`} />
      ) : text ? (
        <blockquote className="results-quote progress-text">{text}</blockquote>
      ) : (
        <p className="hint progress-gone">That analysis was deleted.</p>
      )}
      <figcaption>
        <span className="progress-label">{label}</span> <strong>{formatScore(score)}</strong>
        <span className="muted">/10</span>
      </figcaption>
    </figure>
  )
}

interface ProgressViewProps {
  result: AnalysisResult & { progress: Progress }
  input: ReportInput
  voice: Voice
}

/**
 * A re-rating compared with the analysis it re-rates (issue 58): the two photos or
 * descriptions side by side, the overall delta with its sign and colour, each category's
 * from → to, the suggestions followed, the voice's line on the change and what to do next.
 */
export function ProgressView({ result, input, voice }: ProgressViewProps) {
  const { progress } = result
  const now = input.type === 'image' ? result.imageUrl ?? (input.value?.startsWith('data:image/') ? input.value : null) : null
  const nowText = input.type === 'text' ? input.value : null
  const next = result.suggestions[0]
  const direction = deltaClass(progress.overallDelta)
  return (
    <section className="card stack progress-card" aria-labelledby="progress-title" data-testid="progress">
      <div className="progress-head">
        <h2 id="progress-title" className="card-title">Since last time</h2>
        <p className="progress-overall">
          <span data-testid="progress-scores">
            {formatScore(progress.previousOverallScore)} <ArrowRight aria-label="to" className="progress-arrow" /> {formatScore(result.overallScore)}
          </span>{' '}
          <span className={`progress-delta progress-${direction}`} data-testid="progress-delta">
            {signedDelta(progress.overallDelta)}
          </span>
        </p>
      </div>
      <div className="progress-pair">
        <Side label="Before" score={progress.previousOverallScore} photo={progress.previousImageUrl} text={progress.previousInputType === 'text' ? progress.previousDescription : null} />
        <Side label="After" score={result.overallScore} photo={now} text={nowText} />
      </div>
      <p className="progress-line" data-testid="progress-line" aria-live="polite">{progress.lines[voice]}</p>
      {progress.categoryDeltas.length > 0 && (
        <ul className="plain-list progress-categories" aria-label="Each category, before and now">
          {progress.categoryDeltas.map((d) => {
            const change = d.to - d.from
            return (
              <li key={d.category} className="progress-category" data-testid="progress-category">
                <span className="progress-category-name">{d.category}</span>
                <span>
                  {categoryScoreText(d.from)} → {categoryScoreText(d.to)}{' '}
                  <span className={`progress-delta progress-${deltaClass(change)}`}>{change === 0 ? '' : signedDelta(change)}</span>
                </span>
              </li>
            )
          })}
        </ul>
      )}
      {progress.followedSuggestions.length > 0 && (
        <p data-testid="progress-followed">
          <strong>You followed:</strong> {progress.followedSuggestions.map((f) => f.title).join(', ')}
        </p>
      )}
      <p className="muted" data-testid="progress-next">
        {next ? <>What to do next: <strong>{next.title}</strong> ({next.category}).</> : 'What to do next: keep it this way.'}
      </p>
    </section>
  )
}
