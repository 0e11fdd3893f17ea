import { Link } from 'react-router-dom'
import useSWR, { useSWRConfig } from 'swr'
import { toast } from 'sonner'
import { messageOf } from '@/api/client'
import { relativeTime } from '@/lib/relativeTime'
import { usePageTitle } from '@/lib/usePageTitle'
import { fetchNotifications, markNotificationsRead, NOTIFICATIONS_KEY, UNREAD_KEY, type Notification } from '../api'

function sentence(n: Notification): string {
  const who = n.actorName ?? 'Someone'
  const where = n.setupTitle ? `“${n.setupTitle}”` : 'your setup'
  return n.kind === 'reply' ? `${who} replied to your comment on ${where}` : `${who} commented on ${where}`
}

/** `/notifications`: what others said to the member, newest first; opening one reads it. */
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
      {isLoading && <p className="muted">Loading notifications...</p>}
      {data && data.notifications.length === 0 && <p className="muted">Nothing yet. When someone comments on your setup or replies to you, it shows here.</p>}
      {data && data.notifications.length > 0 && (
        <ul className="stack plain-list" aria-label="Notifications">
          {data.notifications.map((n) => (
            <li key={n.id} className={`card stack notification${n.read ? '' : ' notification-unread'}`} data-testid="notification">
              <Link to={`/community/setup/${n.setupId}`} className="text-link" onClick={() => void (n.read ? undefined : read({ ids: [n.id] }))}>
                {sentence(n)}
              </Link>
              {n.excerpt && <p className="muted">{n.excerpt}</p>}
              <span className="muted">{relativeTime(n.createdAt)}{n.read ? '' : ' · unread'}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
