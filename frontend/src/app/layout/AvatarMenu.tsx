import * as DropdownMenu from '@radix-ui/react-dropdown-menu'
import { useRef, useState } from 'react'
import { useNavigate } from 'react-router-dom'
import type { User } from '@/api/client'
import { Avatar } from '@/components/ui/Avatar'
import { balanceLabel } from '@/lib/balance'
import { accountLinks } from './links'

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
export default function AvatarMenu({ user, onCookies, onDelete, onLogout }: { user: User; onCookies: () => void; onDelete: () => void; onLogout: () => void }) {
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
            <span className="badge" data-testid="credits-badge">{balanceLabel(user)}</span>
          </DropdownMenu.Label>
          <DropdownMenu.Separator className="menu-separator" />
          {accountLinks(user).map((link) => (
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
