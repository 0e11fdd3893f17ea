const formats = new Map<string, Intl.NumberFormat>()

/**
 * Formats a price in cents, e.g. `499` -> `$4.99`, `123450` -> `$1,234.50` (the server's
 * prices are in USD). Dollars are written directly: building an `Intl` currency format is
 * the most expensive call of the home page's first render on a slow phone (~20 ms). Other
 * currencies go through `Intl`, one format per currency.
 */
export function formatPrice(cents: number, currency = 'usd'): string {
  if (currency.toLowerCase() === 'usd') {
    const whole = Math.abs(Math.round(cents))
    const dollars = Math.floor(whole / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',')
    return `${cents < 0 ? '-' : ''}$${dollars}.${String(whole % 100).padStart(2, '0')}`
  }
  const code = currency.toUpperCase()
  let format = formats.get(code)
  if (!format) {
    format = new Intl.NumberFormat('en-US', { style: 'currency', currency: code })
    formats.set(code, format)
  }
  return format.format(cents / 100)
}
