import * as Switch from '@radix-ui/react-switch'
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react'
import { Link } from 'react-router-dom'
import { toast } from 'sonner'
import { X } from 'lucide-react'
import { Modal } from '@/components/ui/Modal'
import { clearOptionalCookies, consentDescription, readConsent, writeConsent, type Consent } from '@/lib/cookieConsent'

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
      <CookiePreferencesDialog
        open={preferencesOpen}
        onOpenChange={setPreferencesOpen}
        consent={consent}
        onSave={(next) => {
          if (next !== consent) choose(next)
          setPreferencesOpen(false)
          toast.success('Your cookie preferences have been updated.')
        }}
      />
    </CookieContext.Provider>
  )
}

function CookiePreferencesDialog({ open, onOpenChange, consent, onSave }: {
  open: boolean
  onOpenChange: (open: boolean) => void
  consent: Consent | null
  onSave: (value: Consent) => void
}) {
  const [analytics, setAnalytics] = useState(consent === 'accepted')
  useEffect(() => {
    if (open) setAnalytics(consent === 'accepted')
  }, [open, consent])

  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Cookie Settings" description={consentDescription(consent)}>
      <div className="pref-row">
        <div>
          <strong id="essential-label">Essential</strong>
          <p className="hint">Needed to sign in and keep the site working. Always active.</p>
        </div>
        <Switch.Root className="switch" checked disabled aria-labelledby="essential-label">
          <Switch.Thumb className="switch-thumb" />
        </Switch.Root>
      </div>
      <div className="pref-row">
        <div>
          <strong id="analytics-label">Analytics &amp; Tracking</strong>
          <p className="hint">Helps us understand how SetupIQ is used.</p>
        </div>
        <Switch.Root className="switch" checked={analytics} onCheckedChange={setAnalytics} aria-labelledby="analytics-label">
          <Switch.Thumb className="switch-thumb" />
        </Switch.Root>
      </div>
      <div className="dialog-actions">
        <button type="button" className="btn btn-secondary" onClick={() => onOpenChange(false)}>Cancel</button>
        <button type="button" className="btn btn-primary" onClick={() => onSave(analytics ? 'accepted' : 'declined')}>Save Preferences</button>
      </div>
    </Modal>
  )
}
