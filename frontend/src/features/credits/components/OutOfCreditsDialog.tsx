import { Link } from 'react-router-dom'
import { Clapperboard, Gem, Gift } from 'lucide-react'
import { Modal } from '@/components/ui/Modal'
import { useAuth, type AuthTab } from '@/lib/auth'
import { ADS_PER_CREDIT } from '../format'
import { AdWatcher } from './WatchAdCard'

/** Why the dialog closed: dismissed (the pending analysis is dropped) or handed to the auth dialog (kept). */
export type OutOfCreditsClose = 'dismiss' | 'auth'

interface OutOfCreditsDialogProps {
  open: boolean
  onClose: (reason: OutOfCreditsClose) => void
  /**
   * The server's reason, when it refused an analysis: shown as it is (a used trial, a
   * shared network's daily limit, no credits left) instead of the generic text.
   */
  message?: string | undefined
}

/**
 * The out-of-credits dialog (spec 000 §2; DESIGN.md §5): watch an ad, sign up free
 * (+3 credits, signed out only) or buy credits (recommended). The parent closes it once
 * credits arrive and resumes the pending analysis.
 */
export function OutOfCreditsDialog({ open, onClose, message }: OutOfCreditsDialogProps) {
  const { state, openAuth } = useAuth()
  const signedIn = state.status === 'authenticated'

  const toAuth = (tab: AuthTab) => {
    onClose('auth')
    openAuth(tab)
  }

  return (
    <Modal
      open={open}
      onOpenChange={(next) => !next && onClose('dismiss')}
      wide
      title={signedIn ? 'Out of Credits!' : 'Choose Your Path'}
      description={
        message ||
        (signedIn
          ? 'Every analysis takes 1 credit. Get one now and your analysis continues right away.'
          : "You've used your free analysis. Pick a path to keep rating setups.")
      }
    >
      <ul className="plain-list stack credit-paths">
        <li className="card credit-path">
          <div className="credit-path-head">
            <span className="feature-icon" aria-hidden="true"><Clapperboard aria-hidden="true" /></span>
            <h3>Watch an Ad</h3>
            <span className="badge badge-success">+1 Credit</span>
          </div>
          <p className="muted">Watch {ADS_PER_CREDIT} short ads to earn a free credit.</p>
          {signedIn ? (
            <AdWatcher />
          ) : (
            <button type="button" className="btn btn-secondary btn-block" onClick={() => toAuth('login')}>
              Sign In to Watch Ads
            </button>
          )}
        </li>
        {!signedIn && (
          <li className="card credit-path">
            <div className="credit-path-head">
              <span className="feature-icon" aria-hidden="true"><Gift aria-hidden="true" /></span>
              <h3>Sign Up Free</h3>
              <span className="badge badge-success">+3 Credits</span>
            </div>
            <p className="muted">Create a free account and get 3 credits to analyze more setups.</p>
            <button type="button" className="btn btn-primary btn-block" onClick={() => toAuth('register')}>
              Sign Up Free
            </button>
          </li>
        )}
        <li className="card credit-path credit-path-recommended">
          <div className="credit-path-head">
            <span className="feature-icon" aria-hidden="true"><Gem aria-hidden="true" /></span>
            <h3>Buy Credits</h3>
            <span className="badge badge-pro">Recommended</span>
          </div>
          <p className="muted">Pick a credit pack and keep analyzing without waiting. No subscription.</p>
          <Link to="/buy-credits" className="btn btn-primary btn-block" onClick={() => onClose('dismiss')}>
            Buy Credits
          </Link>
        </li>
      </ul>
    </Modal>
  )
}
