import {
  categoryScoreClass,
  categoryScoreText,
  formatScore,
  historyBadge,
  percentileText,
  ratingBand,
  scoreColor,
  scoreEmoji,
  scoreLabel,
} from './ratingBands'

// Every boundary of the table in spec 000 §4 "Rating bands": the value just below it,
// the boundary itself, and the ends of the scale.
describe('score colour', () => {
  it.each([
    [0, 'destructive'],
    [3.9, 'destructive'],
    [4, 'warning'],
    [7.4, 'warning'],
    [7.5, 'success'],
    [10, 'success'],
  ] as const)('%s -> %s', (score, color) => expect(scoreColor(score)).toBe(color))
})

describe('emoji', () => {
  it.each([
    [0, '😭'],
    [2.9, '😭'],
    [3, '🤔'],
    [4.9, '🤔'],
    [5, '🙂'],
    [6.9, '🙂'],
    [7, '😎'],
    [8.9, '😎'],
    [9, '🔥'],
    [10, '🔥'],
  ])('%s -> %s', (score, emoji) => expect(scoreEmoji(score)).toBe(emoji))
})

describe('label', () => {
  it.each([
    [0, 'Needs Work'],
    [3.9, 'Needs Work'],
    [4, 'Solid Start'],
    [6.9, 'Solid Start'],
    [7, 'Impressive'],
    [8.9, 'Impressive'],
    [9, 'God Tier'],
    [10, 'God Tier'],
  ])('%s -> %s', (score, label) => expect(scoreLabel(score)).toBe(label))
})

describe('percentile', () => {
  it.each([
    [10, 'Top 5%'],
    [9, 'Top 5%'],
    [8.9, 'Top 15%'],
    [8, 'Top 15%'],
    [7.9, 'Top 30%'],
    [7, 'Top 30%'],
    [6.9, 'Top 50%'],
    [6, 'Top 50%'],
    [5.9, 'Top 65%'],
    [5, 'Top 65%'],
    [4.9, 'Bottom 35%'],
    [0, 'Bottom 35%'],
  ])('%s -> %s', (score, text) => expect(percentileText(score)).toBe(text))
})

describe('category score colour', () => {
  it.each([
    [10, 'great'],
    [8, 'great'],
    [7.5, 'good'],
    [7, 'good'],
    [6.5, 'good'],
    [6, 'good'],
    [5.5, 'ok'],
    [5, 'ok'],
    [4, 'ok'],
    [3.5, 'bad'],
    [3, 'bad'],
    [1, 'bad'],
    [null, 'neutral'],
    [undefined, 'neutral'],
  ] as const)('%s -> %s', (score, klass) => expect(categoryScoreClass(score)).toBe(klass))

  it('shows the placeholder for a missing score', () => {
    expect(categoryScoreText(null)).toBe('-/10')
    expect(categoryScoreText(7)).toBe('7/10')
  })

  it('shows a half point with its decimal and a whole point without one', () => {
    expect(categoryScoreText(6.5)).toBe('6.5/10')
    expect(categoryScoreText(7)).toBe('7/10')
    expect(categoryScoreText(10)).toBe('10/10')
    expect(categoryScoreText(1.5)).toBe('1.5/10')
  })
})

describe('history badge', () => {
  it.each([
    [0, 'low'],
    [4.9, 'low'],
    [5, 'medium'],
    [6.9, 'medium'],
    [7, 'high'],
    [10, 'high'],
  ] as const)('%s -> %s', (score, badge) => expect(historyBadge(score)).toBe(badge))
})

describe('the badge as a whole', () => {
  it('combines the bands of one score', () => {
    expect(ratingBand(7.3)).toEqual({ color: 'warning', emoji: '😎', label: 'Impressive', percentile: 'Top 30%' })
    expect(ratingBand(9.4)).toEqual({ color: 'success', emoji: '🔥', label: 'God Tier', percentile: 'Top 5%' })
    expect(ratingBand(2.1)).toEqual({ color: 'destructive', emoji: '😭', label: 'Needs Work', percentile: 'Bottom 35%' })
  })

  it('formats scores to one decimal', () => {
    expect(formatScore(7)).toBe('7.0')
    expect(formatScore(7.25)).toBe('7.3')
    expect(formatScore(10)).toBe('10.0')
  })
})
