/**
 * Where to go after signing in: only a same-site relative path ("/profile?tab=x"), never
 * another origin ("//evil.example", "https://…", "/\\evil"), so the login page cannot be
 * used as an open redirect.
 */
export function safeRedirect(target: string | null | undefined, fallback = '/'): string {
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) {
    return fallback
  }
  if ([...target].some((c) => c === '\\' || c.charCodeAt(0) < 0x20)) return fallback
  try {
    const url = new URL(target, 'http://same.invalid')
    if (url.origin !== 'http://same.invalid') return fallback
    return url.pathname + url.search + url.hash
  } catch {
    return fallback
  }
}
