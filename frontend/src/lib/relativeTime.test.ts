import { relativeTime, shortDate } from './relativeTime'

const now = new Date('2026-03-14T12:00:00Z')
const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000)

describe('relativeTime', () => {
  it.each([
    [10, 'just now'],
    [60, '1 minute ago'],
    [5 * 60, '5 minutes ago'],
    [2 * 3600, '2 hours ago'],
    [24 * 3600, 'yesterday'],
    [3 * 24 * 3600, '3 days ago'],
    [14 * 24 * 3600, '2 weeks ago'],
    [65 * 24 * 3600, '2 months ago'],
    [400 * 24 * 3600, 'last year'],
  ])('%i seconds ago reads %s', (seconds, text) => {
    expect(relativeTime(ago(seconds), now)).toBe(text)
  })

  it('reads ISO strings', () => {
    expect(relativeTime('2026-03-14T11:00:00Z', now)).toBe('1 hour ago')
    expect(shortDate('2026-03-14T11:00:00Z')).toBe('Mar 14, 2026')
  })
})
