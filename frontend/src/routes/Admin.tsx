import { AdminPage } from '@/features/admin/components/AdminPage'

/** The admin panel (guarded by `<RequireAuth role="admin">` in the router). */
export default function Admin() {
  return <AdminPage />
}
