import { Bell } from 'lucide-react'
import { Link } from 'react-router-dom'
import useSWR from 'swr'
import { fetchUnread, UNREAD_KEY } from '../api'

/** How often the bell asks for news while a page is open. */
const BELL_REFRESH_MS = 60_000

/** The header's bell for a signed-in member: the unread count, and the way to the list. */
export function NotificationBell() {
  const { data: unread = 0 } = useSWR(UNREAD_KEY, fetchUnread, { refreshInterval: BELL_REFRESH_MS, shouldRetryOnError: false })
  return (
    <Link to="/notifications" className="icon-btn bell" aria-label={unread > 0 ? `Notifications, ${unread} unread` : 'Notifications'}>
      <Bell size={20} aria-hidden="true" />
      {unread > 0 && <span className="bell-count" aria-hidden="true" data-testid="bell-count">{unread > 99 ? '99+' : unread}</span>}
    </Link>
  )
}
