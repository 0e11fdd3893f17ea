import * as Switch from '@radix-ui/react-switch'
import { useEffect, useState } from 'react'
import { toast } from '@/lib/toast'
import { Modal } from '@/components/ui/Modal'
import { consentDescription, type Consent } from '@/lib/cookieConsent'

/** The cookie preferences (spec 000 §2): essential always on, analytics a choice. */
export default function CookiePreferencesDialog({ open, onOpenChange, consent, onSave }: {
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
        <button type="button" className="btn btn-primary" onClick={() => {
            onSave(analytics ? 'accepted' : 'declined')
            toast.success('Your cookie preferences have been updated.')
          }}>Save Preferences</button>
      </div>
    </Modal>
  )
}
