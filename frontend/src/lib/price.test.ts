import { formatPrice } from './price'

describe('formatPrice', () => {
  it('writes dollars as Intl does, without building an Intl format', () => {
    const intl = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' })
    for (const cents of [0, 5, 99, 100, 499, 3999, 100000, 123450, 99999999, -499]) {
      expect(formatPrice(cents)).toBe(intl.format(cents / 100))
      expect(formatPrice(cents, 'USD')).toBe(intl.format(cents / 100))
    }
  })

  it('formats other currencies through Intl', () => {
    expect(formatPrice(499, 'eur')).toBe('€4.99')
  })
})
