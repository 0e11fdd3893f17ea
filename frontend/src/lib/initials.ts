/**
 * Avatar initials (spec 000 §2): from the username, the first letters of its first and
 * last words, or the first two letters of a single word; else the first letter of the
 * e-mail; else `null` (the caller shows a generic icon).
 */
export function initials(username?: string | null, email?: string | null): string | null {
  const words = (username ?? '')
    .split(/[\s_\-.]+/)
    .map((w) => w.replace(/[^\p{L}\p{N}]/gu, ''))
    .filter(Boolean)
  const first = words[0]
  const last = words[words.length - 1]
  if (first && last && words.length > 1) {
    return (firstChar(first) + firstChar(last)).toUpperCase()
  }
  if (first) {
    return [...first].slice(0, 2).join('').toUpperCase()
  }
  const mail = (email ?? '').trim()
  return mail ? firstChar(mail).toUpperCase() : null
}

function firstChar(word: string): string {
  return [...word][0] ?? ''
}
