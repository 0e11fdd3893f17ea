const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
]

const FORMAT = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' })

/** `just now`, `5 minutes ago`, `yesterday`, `3 weeks ago`. */
export function relativeTime(date: Date | string, now: Date = new Date()): string {
  const then = typeof date === 'string' ? new Date(date) : date
  const seconds = Math.round((then.getTime() - now.getTime()) / 1000)
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return FORMAT.format(Math.trunc(seconds / size), unit)
  }
  return 'just now'
}

const SHORT_DATE = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' })

/** `Mar 14, 2026`. */
export function shortDate(date: Date | string): string {
  return SHORT_DATE.format(typeof date === 'string' ? new Date(date) : date)
}
