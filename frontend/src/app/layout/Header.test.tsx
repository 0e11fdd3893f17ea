// The avatar menu follows the menu button pattern: arrow keys move, Escape returns to the
// avatar, Tab closes the menu and moves on.
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { CookieConsentProvider } from '@/features/cookies/CookieConsent'
import { mockServer, renderApp, signedIn } from '@/test-utils'
import { Header } from './Header'

afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
  localStorage.clear()
})

async function openAccountMenu(user: Record<string, unknown> = {}) {
  mockServer({ 'GET /_api/auth/session': signedIn(user) })
  renderApp(
    <CookieConsentProvider>
      <Header />
    </CookieConsentProvider>,
  )
  // The menu is loaded on demand: the first test of a run waits for its module.
  const avatar = await screen.findByRole('button', { name: 'Account menu' }, { timeout: 5000 })
  avatar.focus()
  await userEvent.keyboard('{Enter}')
  const menu = await screen.findByRole('menu')
  return { avatar, menu }
}

describe('avatar menu', () => {
  it('shows a free member their balance', async () => {
    await openAccountMenu({ credits: 3 })
    expect(screen.getByTestId('credits-badge')).toHaveTextContent('3 Credits')
  })

  it('tells a Pro member that analyses are unlimited instead of a balance', async () => {
    await openAccountMenu({ isPro: true, credits: 10 })
    expect(screen.getByTestId('credits-badge')).toHaveTextContent('Pro · unlimited analyses')
    expect(screen.queryByText('10 Credits')).not.toBeInTheDocument()
  })

  it('moves between items with the arrow keys and returns to the avatar on Escape', async () => {
    const { avatar } = await openAccountMenu()
    await waitFor(() => expect(screen.getByRole('menuitem', { name: 'My Profile' })).toHaveFocus())
    await userEvent.keyboard('{ArrowDown}')
    expect(screen.getByRole('menuitem', { name: 'My Setups' })).toHaveFocus()
    await userEvent.keyboard('{ArrowUp}')
    expect(screen.getByRole('menuitem', { name: 'My Profile' })).toHaveFocus()
    await userEvent.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument())
    expect(avatar).toHaveFocus()
  })

  it('closes on Tab and moves focus on from the avatar', async () => {
    await openAccountMenu()
    await waitFor(() => expect(screen.getByRole('menuitem', { name: 'My Profile' })).toHaveFocus())
    await userEvent.tab()
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument())
    // The next stop after the avatar in the header is the menu toggle for small screens.
    expect(screen.getByRole('button', { name: 'Open menu' })).toHaveFocus()
  })
})

describe('the admin panel', () => {
  it('is in the account menu of an admin', async () => {
    await openAccountMenu({ role: 'admin' })
    expect(screen.getByRole('menuitem', { name: 'Admin' })).toBeInTheDocument()
  })

  it('is not offered to a member', async () => {
    await openAccountMenu()
    expect(screen.queryByRole('menuitem', { name: 'Admin' })).not.toBeInTheDocument()
  })

  it('is in the menu of small screens of an admin', async () => {
    mockServer({ 'GET /_api/auth/session': signedIn({ role: 'admin' }) })
    renderApp(
      <CookieConsentProvider>
        <Header />
      </CookieConsentProvider>,
    )
    await screen.findByRole('button', { name: 'Account menu' }, { timeout: 5000 })
    await userEvent.click(screen.getByRole('button', { name: 'Open menu' }))
    const sheet = await screen.findByRole('dialog', { name: 'Menu' }, { timeout: 5000 })
    expect(within(sheet).getByRole('link', { name: 'Admin' })).toHaveAttribute('href', '/admin')
  })
})
