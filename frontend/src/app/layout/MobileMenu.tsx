import * as Dialog from '@radix-ui/react-dialog'
import type { RefObject } from 'react'
import { Link } from 'react-router-dom'
import { X } from 'lucide-react'
import type { User } from '@/api/client'
import { balanceLabel } from '@/lib/balance'
import { accountLinks, NAV } from './links'

interface MobileMenuProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  /** The header's button that opens the menu: it gets the focus back on closing. */
  toggle: RefObject<HTMLButtonElement | null>
  user: User | null
  onRigPage: () => void
  onAuth: (tab: 'login' | 'register') => void
  onCookies: () => void
  onDelete: () => void
  onLogout: () => void
}

/** The menu of small screens, a sheet opened by the header's menu button. */
export default function MobileMenu({ open, onOpenChange, toggle, user, onRigPage, onAuth, onCookies, onDelete, onLogout }: MobileMenuProps) {
  const close = () => onOpenChange(false)
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          className="sheet"
          aria-label="Menu"
          onCloseAutoFocus={(event) => {
            // The button is not a Radix trigger (it renders before this loads): Radix would not know where focus goes back to.
            event.preventDefault()
            toggle.current?.focus()
          }}
        >
          <Dialog.Title className="sr-only">Menu</Dialog.Title>
          <Dialog.Description className="sr-only">Site navigation and account</Dialog.Description>
          <div className="row" style={{ justifyContent: 'space-between', marginBottom: '0.5rem' }}>
            <strong>Menu</strong>
            <Dialog.Close className="icon-btn" aria-label="Close menu"><X aria-hidden="true" /></Dialog.Close>
          </div>
          {user && (
            <div className="menu-label">
              <span>{user.email}</span>
              <span className="badge" data-testid="mobile-credits-badge">{balanceLabel(user)}</span>
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
              {accountLinks(user).map((link) => (
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
