import * as Dialog from '@radix-ui/react-dialog'
import * as DropdownMenu from '@radix-ui/react-dropdown-menu'
import { useRef, useState } from 'react'
import { Link, NavLink, useNavigate } from 'react-router-dom'
import { Menu, X } from 'lucide-react'
import type { User } from '@/api/client'
import { Avatar } from '@/components/ui/Avatar'
import { useAuth } from '@/app/auth'
import { DeleteAccountDialog } from '@/features/auth/components/DeleteAccountDialog'
import { useCookieConsent } from '@/features/cookies/CookieConsent'

const NAV = [
  { to: '/about', label: 'About' },
  { to: '/tips', label: 'Tips' },
  { to: '/community', label: 'Community' },
] as const

function creditsLabel(credits: number) {
  return `${credits} ${credits === 1 ? 'Credit' : 'Credits'}`
}

/** Account links shared by the avatar menu and the mobile menu. */
const ACCOUNT_LINKS = [
  { to: '/profile', label: 'My Profile' },
  { to: '/my-setups', label: 'My Setups' },
  { to: '/my-posts', label: 'My Posts' },
  { to: '/contact', label: 'Contact' },
  { to: '/privacy-policy', label: 'Privacy Policy' },
  { to: '/terms', label: 'Terms of Service' },
] as const

export function Header() {
  const { state, user, openAuth, logout } = useAuth()
  const { openPreferences } = useCookieConsent()
  const navigate = useNavigate()
  const [mobileOpen, setMobileOpen] = useState(false)
  const [deleteOpen, setDeleteOpen] = useState(false)

  const openRigPage = () => (user ? navigate('/rigpage-config') : openAuth('register'))
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
            <span className="skeleton desktop-only" style={{ width: 120, height: 36 }} role="status"><span className="sr-only">Loading account</span></span>
          ) : user ? (
            <AvatarMenu user={user} onCookies={openPreferences} onDelete={() => setDeleteOpen(true)} onLogout={doLogout} />
          ) : (
            <>
              <button type="button" className="btn btn-ghost desktop-only" onClick={() => openAuth('login')}>Log In</button>
              <button type="button" className="btn btn-primary desktop-only" onClick={() => openAuth('register')}>Get Started</button>
            </>
          )}
          <MobileMenu
            open={mobileOpen}
            onOpenChange={setMobileOpen}
            user={user}
            onRigPage={() => { setMobileOpen(false); openRigPage() }}
            onAuth={(tab) => { setMobileOpen(false); openAuth(tab) }}
            onCookies={() => { setMobileOpen(false); openPreferences() }}
            onDelete={() => { setMobileOpen(false); setDeleteOpen(true) }}
            onLogout={doLogout}
          />
        </div>
      </div>
      <DeleteAccountDialog open={deleteOpen} onOpenChange={setDeleteOpen} />
    </header>
  )
}

const TABBABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]'

/** The element Tab (or Shift+Tab) reaches from `from` in the page's tab order, if any. */
function nextTabStop(from: HTMLElement, backwards: boolean): HTMLElement | null {
  const stops = Array.from(document.querySelectorAll<HTMLElement>(TABBABLE)).filter(
    (el) => el === from || (el.tabIndex >= 0 && !el.closest('[hidden], [inert], [aria-hidden="true"]') && (typeof el.checkVisibility !== 'function' || el.checkVisibility())),
  )
  const index = stops.indexOf(from)
  if (index === -1) return null
  return stops[backwards ? index - 1 : index + 1] ?? null
}

/**
 * The account menu (menu button pattern): arrow keys move between items (Radix), Escape closes
 * it and returns to the avatar, and Tab closes it and moves on from the avatar, as Tab would
 * from the button.
 */
function AvatarMenu({ user, onCookies, onDelete, onLogout }: { user: User; onCookies: () => void; onDelete: () => void; onLogout: () => void }) {
  const navigate = useNavigate()
  const [open, setOpen] = useState(false)
  const trigger = useRef<HTMLButtonElement>(null)
  // Set by Tab: where focus goes once the menu has closed (instead of back to the avatar).
  const tabbedAway = useRef<'forwards' | 'backwards' | null>(null)
  return (
    <DropdownMenu.Root modal={false} open={open} onOpenChange={setOpen}>
      <DropdownMenu.Trigger ref={trigger} className="avatar-button desktop-only" aria-label="Account menu">
        <Avatar username={user.username} email={user.email} src={user.profilePicture} isPro={user.isPro} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          className="menu"
          align="end"
          sideOffset={8}
          onKeyDown={(event) => {
            if (event.key !== 'Tab') return
            // Radix keeps Tab inside the menu; the menu button pattern closes it instead.
            event.preventDefault()
            tabbedAway.current = event.shiftKey ? 'backwards' : 'forwards'
            setOpen(false)
          }}
          onCloseAutoFocus={(event) => {
            const direction = tabbedAway.current
            tabbedAway.current = null
            if (!direction || !trigger.current) return
            const next = nextTabStop(trigger.current, direction === 'backwards')
            if (!next) return
            event.preventDefault()
            next.focus()
          }}
        >
          <DropdownMenu.Label className="menu-label">
            <span>{user.email}</span>
            <span className="badge" data-testid="credits-badge">{creditsLabel(user.credits)}</span>
          </DropdownMenu.Label>
          <DropdownMenu.Separator className="menu-separator" />
          {ACCOUNT_LINKS.map((link) => (
            <DropdownMenu.Item key={link.to} className="menu-item" onSelect={() => navigate(link.to)}>{link.label}</DropdownMenu.Item>
          ))}
          <DropdownMenu.Item className="menu-item" onSelect={onCookies}>Cookie Settings</DropdownMenu.Item>
          <DropdownMenu.Separator className="menu-separator" />
          <DropdownMenu.Item className="menu-item menu-item-danger" onSelect={onDelete}>Delete Account</DropdownMenu.Item>
          <DropdownMenu.Item className="menu-item" onSelect={onLogout}>Log Out</DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  )
}

interface MobileMenuProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  user: User | null
  onRigPage: () => void
  onAuth: (tab: 'login' | 'register') => void
  onCookies: () => void
  onDelete: () => void
  onLogout: () => void
}

function MobileMenu({ open, onOpenChange, user, onRigPage, onAuth, onCookies, onDelete, onLogout }: MobileMenuProps) {
  const close = () => onOpenChange(false)
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Trigger className="icon-btn menu-toggle" aria-label="Open menu">
        <Menu size={20} aria-hidden="true" />
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="sheet" aria-label="Menu">
          <Dialog.Title className="sr-only">Menu</Dialog.Title>
          <Dialog.Description className="sr-only">Site navigation and account</Dialog.Description>
          <div className="row" style={{ justifyContent: 'space-between', marginBottom: '0.5rem' }}>
            <strong>Menu</strong>
            <Dialog.Close className="icon-btn" aria-label="Close menu"><X aria-hidden="true" /></Dialog.Close>
          </div>
          {user && (
            <div className="menu-label">
              <span>{user.email}</span>
              <span className="badge" data-testid="mobile-credits-badge">{creditsLabel(user.credits)}</span>
            </div>
          )}
          <nav aria-label="Mobile">
            {NAV.map((item) => (
              <Link key={item.to} to={item.to} onClick={close}>{item.label}</Link>
            ))}
            <button type="button" className="sheet-item" onClick={onRigPage}>RigPage</button>
            <Link to="/buy-credits" onClick={close}>Get Credits</Link>
          </nav>
          <hr />
          {user ? (
            <>
              {ACCOUNT_LINKS.map((link) => (
                <Link key={link.to} to={link.to} onClick={close}>{link.label}</Link>
              ))}
              <button type="button" className="sheet-item" onClick={onCookies}>Cookie Settings</button>
              <hr />
              <button type="button" className="sheet-item" style={{ color: '#fca5a5' }} onClick={onDelete}>Delete Account</button>
              <button type="button" className="sheet-item" onClick={onLogout}>Log Out</button>
            </>
          ) : (
            <>
              <button type="button" className="sheet-item" onClick={() => onAuth('login')}>Log In</button>
              <button type="button" className="btn btn-primary btn-block" onClick={() => onAuth('register')}>Get Started</button>
            </>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
