/** Cookie consent as stored in the browser (spec 000 §3-4). */
export type Consent = 'accepted' | 'declined'

export const CONSENT_KEY = 'setupiq-cookie-consent'

export function readConsent(storage: Storage | undefined = safeLocalStorage()): Consent | null {
  try {
    const value = storage?.getItem(CONSENT_KEY)
    return value === 'accepted' || value === 'declined' ? value : null
  } catch {
    return null
  }
}

/** Stores the choice; returns false (with a console warning) when storage is unavailable. */
export function writeConsent(value: Consent, storage: Storage | undefined = safeLocalStorage()): boolean {
  try {
    if (!storage) throw new Error('localStorage is not available')
    storage.setItem(CONSENT_KEY, value)
    return true
  } catch (error) {
    console.warn('Cookie consent could not be saved:', error)
    return false
  }
}

/** Removes optional (non-essential) cookies. SetupIQ sets none today; this is where they go. */
export function clearOptionalCookies(): void {
  const optional: string[] = []
  for (const name of optional) {
    document.cookie = `${name}=; Max-Age=0; Path=/`
  }
}

export function consentDescription(value: Consent | null): string {
  if (value === 'accepted') return 'You have accepted all cookies.'
  if (value === 'declined') return 'You have declined optional cookies.'
  return 'You have not set your preferences yet.'
}

function safeLocalStorage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage
  } catch {
    return undefined
  }
}
