/**
 * The rating bands of spec 000 §4 ("Rating bands"): how a SetupIQ Score or a category
 * score is coloured, labelled and placed. The SetupIQ Score is 0-10 with one decimal; a
 * category score is 1-10 in half points (`6.5`).
 */

export type ScoreColor = 'destructive' | 'warning' | 'success'
export type CategoryScoreClass = 'great' | 'good' | 'ok' | 'bad' | 'neutral'
export type HistoryBadge = 'low' | 'medium' | 'high'

/** Destructive below 4; warning below 7.5; otherwise success. */
export function scoreColor(score: number): ScoreColor {
  if (score < 4) return 'destructive'
  if (score < 7.5) return 'warning'
  return 'success'
}

/** 😭 below 3; 🤔 below 5; 🙂 below 7; 😎 below 9; otherwise 🔥. */
export function scoreEmoji(score: number): string {
  if (score < 3) return '😭'
  if (score < 5) return '🤔'
  if (score < 7) return '🙂'
  if (score < 9) return '😎'
  return '🔥'
}

/** Needs Work below 4; Solid Start below 7; Impressive below 9; otherwise God Tier. */
export function scoreLabel(score: number): string {
  if (score < 4) return 'Needs Work'
  if (score < 7) return 'Solid Start'
  if (score < 9) return 'Impressive'
  return 'God Tier'
}

/** Top 5% at 9+; Top 15% at 8+; Top 30% at 7+; Top 50% at 6+; Top 65% at 5+; otherwise Bottom 35%. */
export function percentileText(score: number): string {
  if (score >= 9) return 'Top 5%'
  if (score >= 8) return 'Top 15%'
  if (score >= 7) return 'Top 30%'
  if (score >= 6) return 'Top 50%'
  if (score >= 5) return 'Top 65%'
  return 'Bottom 35%'
}

/**
 * A category score's colour: 8+ great; 6+ good; 4+ ok; below bad; neutral for the placeholder.
 * A half point takes the band of the whole point below it (7.5 good, 3.5 bad).
 */
export function categoryScoreClass(score: number | null | undefined): CategoryScoreClass {
  if (score === null || score === undefined || Number.isNaN(score)) return 'neutral'
  if (score >= 8) return 'great'
  if (score >= 6) return 'good'
  if (score >= 4) return 'ok'
  return 'bad'
}

/**
 * A category score as shown: in half points, a whole score without a decimal (`7/10`), a
 * half with one (`6.5/10`); the placeholder `-/10` for an unseen category.
 */
export function categoryScoreText(score: number | null | undefined): string {
  if (score === null || score === undefined || Number.isNaN(score)) return '-/10'
  const halves = Math.round(score * 2) / 2
  return `${Number.isInteger(halves) ? halves.toFixed(0) : halves.toFixed(1)}/10`
}

/** The history card's badge: low below 5; medium below 7; high otherwise. */
export function historyBadge(score: number): HistoryBadge {
  if (score < 5) return 'low'
  if (score < 7) return 'medium'
  return 'high'
}

/** A score to one decimal, e.g. `7.0`. */
export function formatScore(score: number): string {
  return (Math.round(score * 10) / 10).toFixed(1)
}

/** Everything the score badge shows for one SetupIQ Score. */
export function ratingBand(score: number) {
  return {
    color: scoreColor(score),
    emoji: scoreEmoji(score),
    label: scoreLabel(score),
    percentile: percentileText(score),
  }
}
