import { createContext, lazy, Suspense, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react'
import { Link } from 'react-router-dom'
import { X } from 'lucide-react'
import { clearOptionalCookies, readConsent, writeConsent, type Consent } from '@/lib/cookieConsent'

// Every page has this provider, few visits open the preferences: the dialog (and its
// switches and toast) loads on its first opening.
const CookiePreferencesDialog = lazy(() => import('./CookiePreferencesDialog'))

const DECLINE_NOTE_MS = 5000

interface CookieContextValue {
  consent: Consent | null
  openPreferences: () => void
}

const CookieContext = createContext<CookieContextValue | null>(null)

export function useCookieConsent(): CookieContextValue {
  const context = useContext(CookieContext)
  if (!context) throw new Error('useCookieConsent must be used inside <CookieConsentProvider>')
  return context
}

/** The consent banner, the 5-second decline note and the preferences dialog (spec 000 §2, §4). */
export function CookieConsentProvider({ children }: { children: ReactNode }) {
  const [consent, setConsent] = useState<Consent | null>(() => readConsent())
  const [showNote, setShowNote] = useState(false)
  const [preferencesOpen, setPreferencesOpen] = useState(false)
  const [preferencesUsed, setPreferencesUsed] = useState(false)
  if (preferencesOpen && !preferencesUsed) setPreferencesUsed(true)

  useEffect(() => {
    if (!showNote) return
    const timer = window.setTimeout(() => setShowNote(false), DECLINE_NOTE_MS)
    return () => window.clearTimeout(timer)
  }, [showNote])

  const choose = useCallback((value: Consent) => {
    writeConsent(value)
    setConsent(value)
    if (value === 'declined') clearOptionalCookies()
  }, [])

  const value = useMemo(() => ({ consent, openPreferences: () => setPreferencesOpen(true) }), [consent])

  return (
    <CookieContext.Provider value={value}>
      {children}
      {consent === null && (
        <section className="cookie-banner" aria-label="Cookie consent">
          <p>
            SetupIQ uses cookies and AI services to analyze your setups. Read our <Link to="/privacy-policy">Privacy Policy</Link> to learn more.
          </p>
          <div className="row">
            <button type="button" className="btn btn-secondary btn-sm" onClick={() => { choose('declined'); setShowNote(true) }}>Decline</button>
            <button type="button" className="btn btn-primary btn-sm" onClick={() => choose('accepted')}>Accept</button>
          </div>
        </section>
      )}
      {showNote && (
        <div className="cookie-note" role="status">
          <span>Optional cookies declined. Only essential cookies will be used.</span>
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => setShowNote(false)} aria-label="Dismiss"><X aria-hidden="true" /></button>
        </div>
      )}
      {preferencesUsed && (
        <Suspense fallback={null}>
          <CookiePreferencesDialog
            open={preferencesOpen}
            onOpenChange={setPreferencesOpen}
            consent={consent}
            onSave={(next) => {
              if (next !== consent) choose(next)
              setPreferencesOpen(false)
            }}
          />
        </Suspense>
      )}
    </CookieContext.Provider>
  )
}
