/** The main navigation, in the header and in the menu of small screens. */
export const NAV = [
  { to: '/about', label: 'About' },
  { to: '/tips', label: 'Tips' },
  { to: '/community', label: 'Community' },
] as const

/** Account links shared by the avatar menu and the mobile menu. */
export const ACCOUNT_LINKS = [
  { to: '/profile', label: 'My Profile' },
  { to: '/my-setups', label: 'My Setups' },
  { to: '/my-posts', label: 'My Posts' },
  { to: '/contact', label: 'Contact' },
  { to: '/privacy-policy', label: 'Privacy Policy' },
  { to: '/terms', label: 'Terms of Service' },
] as const
