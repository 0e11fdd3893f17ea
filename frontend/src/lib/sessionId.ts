/** The browser-session id sent with affiliate click tracking (spec 000 §3 "Local helpers"). */
export const SESSION_ID_KEY = 'setupiq-session-id'

function generate(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID()
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`
}

/** The id kept in session storage, generated on first use; a fresh one when storage is unavailable. */
export function sessionId(storage: Pick<Storage, 'getItem' | 'setItem'> | undefined = globalThis.sessionStorage): string {
  try {
    const existing = storage?.getItem(SESSION_ID_KEY)
    if (existing) return existing
    const id = generate()
    storage?.setItem(SESSION_ID_KEY, id)
    return id
  } catch {
    return generate()
  }
}
