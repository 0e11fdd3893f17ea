import { lazy, Suspense, type ReactNode } from 'react'
import { SWRConfig } from 'swr'
import { AuthProvider } from '@/lib/auth'

// Toasts answer actions, never the first paint: their library loads beside the page.
const Toaster = lazy(() => import('sonner').then((m) => ({ default: m.Toaster })))

/**
 * Server state (SWR: 60 s default stale time, up to 3 retries), the session and toasts
 * (4000 ms, at most 3 visible), per spec 000 §9. No page shows a tooltip, so there is no
 * tooltip provider (spec 000 §9's 700 ms delay goes on one when a page first does).
 * Cookie consent sits inside the router (its banner links to the privacy page).
 */
export function Providers({ children }: { children: ReactNode }) {
  return (
    <SWRConfig value={{ dedupingInterval: 60_000, errorRetryCount: 3, revalidateOnFocus: false }}>
      <AuthProvider>
        {children}
        <Suspense fallback={null}>
          <Toaster theme="dark" position="bottom-right" duration={4000} visibleToasts={3} closeButton richColors />
        </Suspense>
      </AuthProvider>
    </SWRConfig>
  )
}
