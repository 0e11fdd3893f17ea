import { lazy, Suspense, useEffect, useState } from 'react'
import { Outlet, useLocation } from 'react-router-dom'
import { useAuth } from '@/lib/auth'
import { VerifyEmailBanner } from '@/features/auth/components/VerifyEmailBanner'
import { Footer } from './Footer'
import { Header } from './Header'
import { PageSkeleton } from '@/components/layout/PageSkeleton'

// Forms and their validation load with the dialog's first opening, not with every page.
const AuthDialog = lazy(() => import('@/features/auth/components/AuthDialog'))

/** Header, page, footer; scrolls to the top (or to the #anchor) on navigation. */
export function Layout() {
  const { pathname, hash } = useLocation()
  const { authDialog } = useAuth()
  const [authDialogUsed, setAuthDialogUsed] = useState(false)
  if (authDialog.open && !authDialogUsed) setAuthDialogUsed(true)
  useEffect(() => {
    if (hash) {
      document.getElementById(hash.slice(1))?.scrollIntoView()
    } else {
      window.scrollTo(0, 0)
    }
  }, [pathname, hash])

  return (
    <div className="app">
      <a href="#main" className="skip-link">Skip to content</a>
      <Header />
      {/* The verification page says it all itself. */}
      {pathname !== '/verify-email' && <VerifyEmailBanner />}
      <main id="main" tabIndex={-1}>
        <Suspense fallback={<PageSkeleton />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
      {authDialogUsed && (
        <Suspense fallback={null}>
          <AuthDialog />
        </Suspense>
      )}
    </div>
  )
}
