import { dayTicks, scoreChains, scoreHistory, scoreHistorySummary, SCORE_HISTORY_LIMIT } from './history'
import { shortDate } from '@/lib/relativeTime'

const at = (day: number) => new Date(Date.UTC(2026, 0, day)).toISOString()

describe('score history', () => {
  it('puts the analyses oldest first', () => {
    const points = scoreHistory([
      { id: 3, createdAt: at(3), overallRating: 7.1 },
      { id: 1, createdAt: at(1), overallRating: 5 },
      { id: 2, createdAt: at(2), overallRating: 8.4 },
    ])
    expect(points.map((p) => p.id)).toEqual([1, 2, 3])
    expect(points.map((p) => p.score)).toEqual([5, 8.4, 7.1])
  })

  it('keeps the newest fifty', () => {
    const analyses = Array.from({ length: 60 }, (_, i) => ({ id: i + 1, createdAt: at(i + 1), overallRating: 5 }))
    const points = scoreHistory(analyses)
    expect(points).toHaveLength(SCORE_HISTORY_LIMIT)
    expect(points[0]!.id).toBe(11)
    expect(points.at(-1)!.id).toBe(60)
  })

  it('sums it up in words', () => {
    const points = scoreHistory([
      { id: 1, createdAt: at(1), overallRating: 6 },
      { id: 2, createdAt: at(2), overallRating: 8.4 },
      { id: 3, createdAt: at(3), overallRating: 5.5 },
      { id: 4, createdAt: at(4), overallRating: 6.9 },
      { id: 5, createdAt: at(5), overallRating: 7.1 },
    ])
    expect(scoreHistorySummary(points)).toBe('5 analyses, best 8.4, latest 7.1')
    expect(scoreHistorySummary(points.slice(0, 1))).toBe('1 analysis, best 6.0, latest 6.0')
    expect(scoreHistorySummary([])).toBe('')
  })
})

describe('score chains', () => {
  const a = (id: number, day: number, overallRating: number, previousAnalysisId: number | null = null) => ({
    id,
    createdAt: at(day),
    overallRating,
    previousAnalysisId,
  })

  it('draws each re-rated setup as one line and the others as points', () => {
    const { chains, singles } = scoreChains([
      a(5, 5, 7.8, 3),
      a(4, 4, 6, null),
      a(3, 3, 6.4, 1),
      a(2, 2, 4.9, null),
      a(1, 1, 5.2, null),
    ])
    expect(chains.map((line) => line.map((p) => p.score))).toEqual([[5.2, 6.4, 7.8]])
    expect(singles.map((p) => p.id)).toEqual([2, 4])
  })

  it('starts a chain where the history does when its start was deleted', () => {
    const { chains, singles } = scoreChains([a(3, 3, 7, 2), a(2, 2, 6, 1)])
    expect(chains.map((line) => line.map((p) => p.id))).toEqual([[2, 3]])
    expect(singles).toEqual([])
  })

  it('branches when one analysis was re-rated twice', () => {
    const { chains } = scoreChains([a(1, 1, 5), a(2, 2, 6, 1), a(3, 3, 7, 1)])
    expect(chains.map((line) => line.map((p) => p.id))).toEqual([[1, 2], [1, 3]])
  })
})

describe('the score history axis', () => {
  const dates = (first: Date, last: Date) => dayTicks(first.getTime(), last.getTime()).map((t) => shortDate(new Date(t)))

  it('writes one date for analyses of one day, not one per few hours', () => {
    expect(dates(new Date(2026, 0, 5, 9, 0), new Date(2026, 0, 5, 21, 30))).toEqual([shortDate(new Date(2026, 0, 5, 12))])
  })

  it('writes each day once, and every few days over a long span', () => {
    const week = dates(new Date(2026, 0, 1, 8), new Date(2026, 0, 4, 20))
    expect(week).toHaveLength(4)
    expect(new Set(week).size).toBe(4)
    const months = dates(new Date(2026, 0, 1), new Date(2026, 2, 31))
    expect(months.length).toBeLessThanOrEqual(6)
    expect(new Set(months).size).toBe(months.length)
  })
})
