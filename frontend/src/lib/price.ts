/** Formats a price in cents, e.g. `499` -> `$4.99` (the server's prices are in USD). */
export function formatPrice(cents: number, currency = 'usd'): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100)
}
