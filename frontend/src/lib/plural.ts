/**
 * A count with its noun in the right number: `1 credit`, `0 credits`, `2 credits`.
 * `many` is for nouns whose plural is not the singular plus "s" (`1 entry`, `2 entries`).
 */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`
}

/** `plural` with the count already formatted (`1,234 clicks`); the noun follows the number. */
export function pluralFormatted(count: number, formatted: string, one: string, many = `${one}s`): string {
  return `${formatted} ${count === 1 ? one : many}`
}
