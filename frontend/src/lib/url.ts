/** `http:` or `https:` with a host and no whitespace (the server's rule for followable URLs). */
export function isHttpUrl(value: string): boolean {
  if (/\s/.test(value) || value.length > 2048) return false
  try {
    const url = new URL(value)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== ''
  } catch {
    return false
  }
}
