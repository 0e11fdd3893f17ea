import type { ReactNode } from 'react'
import { Navigate, useLocation } from 'react-router-dom'
import { Lock } from 'lucide-react'
import { Skeleton } from '@/components/ui/Skeleton'
import { useAuth } from '@/lib/auth'

/**
 * The protected-page guard: 'Authenticating' while the session loads, a redirect to
 * /login (remembering where to come back) when signed out, 'Access Denied' for a role
 * that lacks permission. The server enforces the same rules on every call.
 */
export function RequireAuth({ role, children }: { role?: string; children: ReactNode }) {
  const { state } = useAuth()
  const location = useLocation()
  if (state.status === 'loading') {
    return (
      <div className="container stack" aria-busy="true">
        <h1 style={{ fontSize: '1.2rem' }} className="muted">Authenticating</h1>
        <Skeleton height={32} width="40%" />
        <Skeleton height={160} />
      </div>
    )
  }
  if (state.status === 'unauthenticated') {
    const from = location.pathname + location.search + location.hash
    return <Navigate to={`/login?redirect=${encodeURIComponent(from)}`} replace />
  }
  if (role && state.user.role !== role) {
    return (
      <div className="container state">
        <div className="state-icon" aria-hidden="true"><Lock aria-hidden="true" /></div>
        <h1>Access Denied</h1>
        <p className="muted">Access denied. Your role ({state.user.role}) lacks required permissions.</p>
      </div>
    )
  }
  return <>{children}</>
}
