import * as Tooltip from '@radix-ui/react-tooltip'
import type { ReactNode } from 'react'
import { Toaster } from 'sonner'
import { SWRConfig } from 'swr'
import { AuthProvider } from '@/app/auth'

/**
 * Server state (SWR: 60 s default stale time, up to 3 retries), the session, toasts
 * (4000 ms, at most 3 visible) and tooltips (700 ms delay), per spec 000 §9.
 * Cookie consent sits inside the router (its banner links to the privacy page).
 */
export function Providers({ children }: { children: ReactNode }) {
  return (
    <SWRConfig value={{ dedupingInterval: 60_000, errorRetryCount: 3, revalidateOnFocus: false }}>
      <AuthProvider>
        <Tooltip.Provider delayDuration={700}>
          {children}
          <Toaster theme="dark" position="bottom-right" duration={4000} visibleToasts={3} closeButton richColors />
        </Tooltip.Provider>
      </AuthProvider>
    </SWRConfig>
  )
}
