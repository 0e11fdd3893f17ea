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

/** One analysis on the score history with the analysis it re-rated (`null`: none, or deleted). */
export interface LinkedPoint extends ScorePoint {
  previousId: number | null
}

/**
 * The score history split into the setups that were re-rated (each chain of re-ratings, oldest
 * first: one line per setup) and the analyses that are no part of any chain (points). A link
 * to an analysis outside the history (deleted, or older than the newest fifty) starts a chain
 * where the history does.
 */
export function scoreChains(
  analyses: readonly Pick<SavedAnalysis, 'id' | 'createdAt' | 'overallRating' | 'previousAnalysisId'>[],
): { chains: LinkedPoint[][]; singles: LinkedPoint[] } {
  const points: LinkedPoint[] = scoreHistory(analyses).map((p) => ({
    ...p,
    previousId: analyses.find((a) => a.id === p.id)?.previousAnalysisId ?? null,
  }))
  const shown = new Set(points.map((p) => p.id))
  const next = new Map<number, LinkedPoint[]>()
  for (const p of points) {
    if (p.previousId !== null && shown.has(p.previousId)) next.set(p.previousId, [...(next.get(p.previousId) ?? []), p])
  }
  const chains: LinkedPoint[][] = []
  const singles: LinkedPoint[] = []
  // Oldest first, so a chain is met at its start; a setup re-rated twice from one analysis branches.
  const walk = (from: LinkedPoint, line: LinkedPoint[]) => {
    const after = next.get(from.id) ?? []
    if (after.length === 0) {
      chains.push(line)
      return
    }
    after.forEach((p, i) => walk(p, i === 0 ? [...line, p] : [from, p]))
  }
  for (const p of points) {
    const starts = p.previousId === null || !shown.has(p.previousId)
    if (!starts) continue
    if (next.has(p.id)) walk(p, [p])
    else singles.push(p)
  }
  return { chains, singles }
}

/** Most dates written under the score history's axis. */
const MAX_DAY_TICKS = 6
const DAY_MS = 24 * 3600 * 1000

/**
 * Where the score history's time axis writes its dates: noon of each calendar day (local
 * time) from the first analysis's to the last's, every few days where there are many, so that
 * no date is written twice (ticks every few hours of one day would all read the same date).
 */
export function dayTicks(first: number, last: number): number[] {
  const noon = (time: number) => {
    const day = new Date(time)
    day.setHours(12, 0, 0, 0)
    return day.getTime()
  }
  const days: number[] = []
  for (let day = noon(first); day <= noon(last); day = noon(day + DAY_MS)) days.push(day)
  const step = Math.ceil(days.length / MAX_DAY_TICKS)
  return days.filter((_, i) => i % step === 0)
}
