import useSWR from 'swr'
import useSWRMutation from 'swr/mutation'
import { toast } from '@/lib/toast'
import { Laptop } from 'lucide-react'
import { messageOf } from '@/api/client'
import { retryUnlessSignedOut } from '@/api/resources'
import { Skeleton } from '@/components/ui/Skeleton'
import { relativeTime, shortDate } from '@/lib/relativeTime'
import { fetchSessions, SESSIONS_KEY, signOutEverywhereElse } from '../api'

/**
 * The browsers and devices signed in to the account, this one first, with "Sign Out
 * Everywhere Else". Where each one is is never shown: the server does not keep it.
 */
export function ActiveSessions() {
  const { data: sessions, error } = useSWR(SESSIONS_KEY, fetchSessions, retryUnlessSignedOut)
  // A mutation of the list: SWR reads it again once the call has answered.
  const { trigger, isMutating: pending } = useSWRMutation(SESSIONS_KEY, signOutEverywhereElse)

  const signOutOthers = async () => {
    try {
      toast.success(await trigger())
    } catch (failure) {
      toast.error(messageOf(failure, 'Failed to sign out your other devices. Please try again.'))
    }
  }

  return (
    <div className="stack">
      <h3 style={{ margin: 0 }}>Signed-in devices</h3>
      {error && <p className="form-error" role="alert">{messageOf(error, 'Could not load your signed-in devices.')}</p>}
      {!sessions && !error && <Skeleton height={56} />}
      {sessions && (
        <ul className="session-list" aria-label="Signed-in devices">
          {sessions.map((session, i) => (
            <li key={`${session.signedInAt}-${i}`} className="row">
              <Laptop aria-hidden="true" size={20} />
              <div style={{ flex: 1 }}>
                <div>
                  {session.device}
                  {session.current && <span className="badge" style={{ marginLeft: '0.5rem' }}>This device</span>}
                </div>
                <div className="muted" style={{ fontSize: '0.875rem' }}>
                  Signed in {shortDate(session.signedInAt)}
                  {!session.current && ` · last active ${relativeTime(session.lastSeenAt)}`}
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
      <div className="row">
        <p className="muted" style={{ margin: 0, flex: '1 1 16rem' }}>Signed in on a device you no longer use? Sign it out from here.</p>
        <button type="button" className="btn btn-secondary" onClick={signOutOthers} disabled={pending} aria-busy={pending || undefined}>
          {pending ? 'Signing out...' : 'Sign Out Everywhere Else'}
        </button>
      </div>
    </div>
  )
}
