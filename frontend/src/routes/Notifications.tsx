import { NotificationsPage } from '@/features/community/components/NotificationsPage'

/** The member's notifications (the header's bell leads here). */
export default function Notifications() {
  return (
    <div className="container stack">
      <NotificationsPage />
    </div>
  )
}
