import { plural, pluralFormatted } from './plural'

describe('plural', () => {
  it.each([
    [0, 'credit', undefined, '0 credits'],
    [1, 'credit', undefined, '1 credit'],
    [2, 'credit', undefined, '2 credits'],
    [1, 'entry', 'entries', '1 entry'],
    [5, 'entry', 'entries', '5 entries'],
    [-1, 'credit', undefined, '-1 credits'],
  ])('counts %i %s', (count, one, many, text) => {
    expect(plural(count, one, many)).toBe(text)
  })

  it('keeps a formatted number', () => {
    expect(pluralFormatted(1234, '1,234', 'click')).toBe('1,234 clicks')
    expect(pluralFormatted(1, '1', 'session')).toBe('1 session')
  })
})
