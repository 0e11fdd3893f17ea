import { AdminPage } from '@/features/admin/components/AdminPage'
import { usePageTitle } from '@/lib/usePageTitle'

/** The admin panel (guarded by `<RequireAuth role="admin">` in the router). */
export default function Admin() {
  usePageTitle('Admin')
  return <AdminPage />
}
