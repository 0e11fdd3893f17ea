import { formatScore } from '@/lib/ratingBands'
import { plural } from '@/lib/plural'
import type { SavedAnalysis } from './api'

/** How many of the newest analyses the score history shows. */
export const SCORE_HISTORY_LIMIT = 50

/** One analysis on the score history: its SetupIQ Score and when it was made. */
export interface ScorePoint {
  id: number
  createdAt: string
  score: number
}

/** The score history of the newest analyses (at most `SCORE_HISTORY_LIMIT`), oldest first. */
export function scoreHistory(analyses: readonly Pick<SavedAnalysis, 'id' | 'createdAt' | 'overallRating'>[]): ScorePoint[] {
  return analyses
    .map((a) => ({ id: a.id, createdAt: a.createdAt, score: a.overallRating }))
    .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || b.id - a.id)
    .slice(0, SCORE_HISTORY_LIMIT)
    .reverse()
}

/** What the chart says in words: "5 analyses, best 8.4, latest 7.1" (empty for none). */
export function scoreHistorySummary(points: readonly ScorePoint[]): string {
  const latest = points.at(-1)
  if (!latest) return ''
  const best = Math.max(...points.map((p) => p.score))
  return `${plural(points.length, 'analysis', 'analyses')}, best ${formatScore(best)}, latest ${formatScore(latest.score)}`
}
