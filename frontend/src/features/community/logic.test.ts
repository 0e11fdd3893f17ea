import { applyVote, canEdit, checkNewImages, maxExtraImages, monthYear, moveItem, oneDecimal, winnerMark } from './logic'

const file = (name: string, type = 'image/jpeg', size = 1000) => ({ name, type, size })

describe('applyVote', () => {
  it.each([
    [5, null, 1, 6, 1],
    [5, null, -1, 4, -1],
    [6, 1, 1, 5, null],
    [4, -1, -1, 5, null],
    [6, 1, -1, 4, -1],
    [4, -1, 1, 6, 1],
  ] as const)('score %i, vote %s, click %i -> %i, %s', (score, current, value, nextScore, nextVote) => {
    expect(applyVote(score, current, value)).toEqual({ score: nextScore, userVote: nextVote })
  })
})

describe('image count rule', () => {
  it('allows 4 extra photos besides the analysis photo, 5 otherwise', () => {
    expect(maxExtraImages(true)).toBe(4)
    expect(maxExtraImages(false)).toBe(5)
  })

  it('refuses more than the maximum and says how many may still be added', () => {
    expect(checkNewImages([file('a.jpg'), file('b.jpg')], 3, 4).error).toBe('Maximum 4 images allowed. You can add 1 more.')
    expect(checkNewImages([file('a.jpg')], 5, 5).error).toBe('Maximum 5 images allowed. You can add 0 more.')
    expect(checkNewImages([file('a.jpg')], 3, 4)).toEqual({ files: [file('a.jpg')], error: null })
  })

  it('refuses other types and files over 5 MB', () => {
    expect(checkNewImages([file('a.gif', 'image/gif')], 0, 5).error).toBe('Invalid file type. Please use JPEG, PNG, or WEBP.')
    expect(checkNewImages([file('big.png', 'image/png', 5 * 1024 * 1024 + 1)], 0, 5).error).toBe('File "big.png" is too large. Maximum size is 5MB.')
    expect(checkNewImages([file('ok.webp', 'image/webp', 5 * 1024 * 1024)], 0, 5).error).toBeNull()
  })
})

describe('winnerMark', () => {
  it('marks the top 3 of a week or month sorted by top', () => {
    expect(winnerMark(0, 'week', 'top', 5)).toEqual({ rank: 1, medal: 'gold', label: 'Top of The Week' })
    expect(winnerMark(1, 'month', 'top', 3)).toEqual({ rank: 2, medal: 'silver', label: 'Top of The Month' })
    expect(winnerMark(2, 'week', 'top', 1)?.medal).toBe('bronze')
    expect(winnerMark(3, 'week', 'top', 1)).toBeNull()
  })

  it('marks nothing for all time or other sorts', () => {
    expect(winnerMark(0, 'all', 'top', 5)).toBeNull()
    expect(winnerMark(0, 'week', 'new', 5)).toBeNull()
    expect(winnerMark(0, 'month', 'hot', 5)).toBeNull()
  })

  it('marks no winner without a vote in its favour', () => {
    expect(winnerMark(0, 'week', 'top', 0)).toBeNull()
    expect(winnerMark(1, 'month', 'top', -2)).toBeNull()
  })
})

describe('helpers', () => {
  it('allows edits within one hour', () => {
    const now = Date.parse('2026-03-14T10:00:00Z')
    expect(canEdit('2026-03-14T09:01:00Z', now)).toBe(true)
    expect(canEdit('2026-03-14T09:00:00Z', now)).toBe(false)
  })

  it('moves items', () => {
    expect(moveItem(['a', 'b', 'c'], 0, 2)).toEqual(['b', 'c', 'a'])
    expect(moveItem(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b'])
  })

  it('formats', () => {
    expect(monthYear('2026-03-14T09:26:53Z')).toBe('March 2026')
    expect(oneDecimal(4.25)).toBe('4.3')
    expect(oneDecimal(null)).toBe('0.0')
  })
})
