// Dead ends a visitor met (issue 56): pages and buttons that need an account say so, offer the
// way in, and say why it is needed for what was clicked.
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import AuthDialog from '@/features/auth/components/AuthDialog'
import { PacksGrid } from '@/features/credits/components/PacksGrid'
import { CookieConsentProvider } from '@/features/cookies/CookieConsent'
import Login from '@/routes/Login'
import Profile from '@/routes/Profile'
import { mockServer, renderApp, signedOut } from '@/test-utils'
import { Header } from './Header'

afterEach(() => vi.unstubAllGlobals())

const packs = {
  status: 200,
  body: { packs: [{ id: 'starter', name: 'Starter Pack', credits: 5, priceCents: 499, currency: 'usd', popular: false }], testMode: true, publishableKey: null },
}

describe('signing in where it is needed', () => {
  it('offers a signed-out visitor of /profile the login', async () => {
    mockServer({ 'GET /_api/auth/session': signedOut })
    renderApp(<><Profile /><AuthDialog /></>, { route: '/profile' })
    expect(await screen.findByRole('heading', { name: 'Please Log In' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Go to Homepage' })).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }))
    const dialog = await screen.findByRole('dialog', { name: 'Welcome to SetupIQ' })
    expect(dialog).toHaveAccessibleDescription('Log in or create a free account to get your setup rated.')
  })

  it('is a plain login page when /login is opened directly, and one to continue from a redirect', async () => {
    mockServer({ 'GET /_api/auth/session': signedOut })
    const { unmount } = renderApp(<Login />, { route: '/login' })
    expect(screen.getByRole('heading', { name: 'Log In' })).toBeInTheDocument()
    expect(screen.getByText('Log in to your SetupIQ account.')).toBeInTheDocument()
    unmount()
    renderApp(<Login />, { route: '/login?redirect=/notifications' })
    expect(screen.getByRole('heading', { name: 'Sign in to continue' })).toBeInTheDocument()
  })

  it('tells a visitor who clicks RigPage why to sign up for it', async () => {
    mockServer({ 'GET /_api/auth/session': signedOut })
    renderApp(<CookieConsentProvider><Header /><AuthDialog /></CookieConsentProvider>)
    await userEvent.click(await screen.findByRole('button', { name: 'RigPage' }))
    const dialog = await screen.findByRole('dialog', { name: 'Welcome to SetupIQ' })
    expect(dialog).toHaveAccessibleDescription('Create a free account or log in to build your RigPage: one public link for your setup, your gear and your socials.')
    expect(within(dialog).getByRole('tab', { name: 'Register' })).toHaveAttribute('aria-selected', 'true')
    // Switching tabs keeps why.
    await userEvent.click(within(dialog).getByRole('tab', { name: 'Log In' }))
    expect(dialog).toHaveAccessibleDescription(/to build your RigPage/)
  })

  it('tells a visitor who clicks Buy Now why to sign in for it', async () => {
    mockServer({ 'GET /_api/auth/session': signedOut, 'GET /_api/credits/packs': packs })
    const onBuy = vi.fn()
    renderApp(<><PacksGrid onBuy={onBuy} /><AuthDialog /></>)
    await userEvent.click(await screen.findByRole('button', { name: /Buy Now/ }))
    const dialog = await screen.findByRole('dialog', { name: 'Welcome to SetupIQ' })
    expect(dialog).toHaveAccessibleDescription('Log in or create a free account to buy credits: they are added to your account, so you can use them on any device.')
    expect(onBuy).not.toHaveBeenCalled()
  })
})
