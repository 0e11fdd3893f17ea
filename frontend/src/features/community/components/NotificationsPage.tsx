import { Link } from 'react-router-dom'
import useSWR, { useSWRConfig } from 'swr'
import { toast } from '@/lib/toast'
import { messageOf } from '@/api/client'
import { relativeTime } from '@/lib/relativeTime'
import { usePageTitle } from '@/lib/usePageTitle'
import {
  fetchNotifications, fetchNotificationSettings, markNotificationsRead, NOTIFICATION_SETTINGS_KEY, NOTIFICATIONS_KEY,
  saveNotificationSettings, UNREAD_KEY,
} from '../api'

/** The daily e-mail digest, off until the member turns it on (a verified address needed). */
function DigestSetting() {
  const { data, mutate } = useSWR(NOTIFICATION_SETTINGS_KEY, fetchNotificationSettings)
  if (!data) return null
  const change = async (emailDigest: boolean) => {
    try {
      await mutate(saveNotificationSettings({ emailDigest }), { optimisticData: { ...data, emailDigest }, rollbackOnError: true, revalidate: false })
      toast.success(emailDigest ? 'You will get a daily digest of unread notifications.' : 'Daily digest turned off.')
    } catch (error) {
      toast.error(messageOf(error, 'Failed to save your e-mail settings.'))
    }
  }
  return (
    <div className="card stack">
      <label className="row">
        <input type="checkbox" checked={data.emailDigest} disabled={!data.emailVerified} onChange={(event) => void change(event.target.checked)} />
        E-mail me a daily digest of unread notifications
      </label>
      <p className="hint">
        {data.emailVerified
          ? 'At most one e-mail a day, only when something is new. Every digest has a one-click unsubscribe link.'
          : 'Verify your e-mail address to get the digest.'}
      </p>
    </div>
  )
}

/** `/notifications`: what others said to the member and moderators decided, newest first; opening one reads it. */
export function NotificationsPage() {
  usePageTitle('Notifications')
  const { data, isLoading, mutate } = useSWR(NOTIFICATIONS_KEY, fetchNotifications)
  const { mutate: refresh } = useSWRConfig()
  const read = async (body: { ids: number[] } | { all: true }) => {
    try {
      await markNotificationsRead(body)
      // The list, and the bell's count.
      await Promise.all([mutate(), refresh(UNREAD_KEY)])
    } catch (error) {
      toast.error(messageOf(error, 'Failed to mark notifications read.'))
    }
  }
  return (
    <div className="stack">
      <div className="row notifications-head">
        <h1>Notifications</h1>
        {data && data.unread > 0 && (
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => void read({ all: true })}>Mark all as read</button>
        )}
      </div>
      <DigestSetting />
      {isLoading && <p className="muted">Loading notifications...</p>}
      {data && data.notifications.length === 0 && <p className="muted">Nothing yet. When someone comments on your setup or replies to you, a moderator decides on your post or report, or a link on your RigPage stops working, it shows here.</p>}
      {data && data.notifications.length > 0 && (
        <ul className="stack plain-list" aria-label="Notifications">
          {data.notifications.map((n) => {
            // The server words each notice (the same sentence as the digest) and says where it leads.
            const target = n.path
            return (
              <li key={n.id} className={`card stack notification${n.read ? '' : ' notification-unread'}`} data-testid="notification">
                {target ? (
                  <Link to={target} className="text-link" onClick={() => void (n.read ? undefined : read({ ids: [n.id] }))}>
                    {n.sentence}
                  </Link>
                ) : (
                  <p>{n.sentence}</p>
                )}
                {/* A comment's start stands under the sentence; every other kind quotes it in the sentence. */}
                {n.excerpt && n.commentId !== null && <p className="muted">{n.excerpt}</p>}
                <span className="row muted">
                  {relativeTime(n.createdAt)}{n.read ? '' : ' · unread'}
                  {!n.read && target === null && (
                    <button type="button" className="btn btn-ghost btn-sm" onClick={() => void read({ ids: [n.id] })}>Mark as read</button>
                  )}
                </span>
              </li>
            )
          })}
        </ul>
      )}
    </div>
  )
}
