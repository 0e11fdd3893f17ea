/** The main navigation, in the header and in the menu of small screens. */
export const NAV = [
  { to: '/about', label: 'About' },
  { to: '/tips', label: 'Tips' },
  { to: '/community', label: 'Community' },
] as const

/** Account links shared by the avatar menu and the mobile menu. */
const ACCOUNT_LINKS = [
  { to: '/profile', label: 'My Profile' },
  { to: '/my-setups', label: 'My Setups' },
  { to: '/my-posts', label: 'My Posts' },
  { to: '/contact', label: 'Contact' },
  { to: '/privacy-policy', label: 'Privacy Policy' },
  { to: '/terms', label: 'Terms of Service' },
] as const

/** The admin panel's way in: nothing else links to /admin. */
const ADMIN_LINK = { to: '/admin', label: 'Admin' } as const

/**
 * The account links a member sees in both menus: an admin gets the admin panel first. The
 * server grants the role only to a verified listed address, so the role alone decides.
 */
export function accountLinks(user: { role: string }): ReadonlyArray<{ to: string; label: string }> {
  return user.role === 'admin' ? [ADMIN_LINK, ...ACCOUNT_LINKS] : ACCOUNT_LINKS
}
