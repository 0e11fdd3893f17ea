import { lazy, Suspense, useRef, useState } from 'react'
import { Link, NavLink, useNavigate } from 'react-router-dom'
import { Menu } from 'lucide-react'
import { useAuth } from '@/lib/auth'
import { NotificationBell } from '@/features/community/components/NotificationBell'
import { useCookieConsent } from '@/features/cookies/CookieConsent'
import { NAV } from './links'

// A signed-out first visit needs neither the account menu (a dropdown with its positioning
// engine), the small screens' menu (a dialog) nor the account deletion dialog: they load
// when first shown.
const AvatarMenu = lazy(() => import('./AvatarMenu'))
const MobileMenu = lazy(() => import('./MobileMenu'))
const DeleteAccountDialog = lazy(() => import('@/features/auth/components/DeleteAccountDialog').then((m) => ({ default: m.DeleteAccountDialog })))

/** Why a visitor who clicked RigPage is asked to sign up. */
const RIGPAGE_SIGN_IN = 'Create a free account or log in to build your RigPage: one public link for your setup, your gear and your socials.'

export function Header() {
  const { state, user, openAuth, logout } = useAuth()
  const { openPreferences } = useCookieConsent()
  const navigate = useNavigate()
  const [mobileOpen, setMobileOpen] = useState(false)
  const [mobileUsed, setMobileUsed] = useState(false)
  if (mobileOpen && !mobileUsed) setMobileUsed(true)
  const menuToggle = useRef<HTMLButtonElement>(null)
  const [deleteOpen, setDeleteOpen] = useState(false)
  const [deleteUsed, setDeleteUsed] = useState(false)
  if (deleteOpen && !deleteUsed) setDeleteUsed(true)

  const openRigPage = () => (user ? navigate('/rigpage-config') : openAuth('register', RIGPAGE_SIGN_IN))
  const doLogout = async () => {
    setMobileOpen(false)
    await logout()
    navigate('/')
  }

  return (
    <header className="header">
      <div className="container header-inner">
        <Link to="/" className="logo" aria-label="SetupIQ home">
          <span className="logo-mark" aria-hidden="true">IQ</span>
          SetupIQ
        </Link>
        <nav className="nav" aria-label="Main">
          {NAV.map((item) => (
            <NavLink key={item.to} to={item.to}>{item.label}</NavLink>
          ))}
          <button type="button" className="nav-link" onClick={openRigPage}>RigPage</button>
          <NavLink to="/buy-credits">Get Credits</NavLink>
        </nav>
        <div className="header-actions">
          {state.status === 'loading' ? (
            <AccountLoading />
          ) : user ? (
            <Suspense fallback={<AccountLoading />}>
              <NotificationBell />
              <AvatarMenu user={user} onCookies={openPreferences} onDelete={() => setDeleteOpen(true)} onLogout={doLogout} />
            </Suspense>
          ) : (
            <>
              <button type="button" className="btn btn-ghost desktop-only" onClick={() => openAuth('login')}>Log In</button>
              <button type="button" className="btn btn-primary desktop-only" onClick={() => openAuth('register')}>Get Started</button>
            </>
          )}
          <button ref={menuToggle} type="button" className="icon-btn menu-toggle" aria-label="Open menu" aria-haspopup="dialog" aria-expanded={mobileOpen} onClick={() => setMobileOpen(true)}>
            <Menu size={20} aria-hidden="true" />
          </button>
          {mobileUsed && (
            <Suspense fallback={null}>
              <MobileMenu
                open={mobileOpen}
                onOpenChange={setMobileOpen}
                toggle={menuToggle}
                user={user}
                onRigPage={() => { setMobileOpen(false); openRigPage() }}
                onAuth={(tab) => { setMobileOpen(false); openAuth(tab) }}
                onCookies={() => { setMobileOpen(false); openPreferences() }}
                onDelete={() => { setMobileOpen(false); setDeleteOpen(true) }}
                onLogout={doLogout}
              />
            </Suspense>
          )}
        </div>
      </div>
      {deleteUsed && (
        <Suspense fallback={null}>
          <DeleteAccountDialog open={deleteOpen} onOpenChange={setDeleteOpen} />
        </Suspense>
      )}
    </header>
  )
}

function AccountLoading() {
  return <span className="skeleton desktop-only" style={{ width: 120, height: 36 }} role="status"><span className="sr-only">Loading account</span></span>
}
