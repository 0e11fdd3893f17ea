// A page that fails to load shows the app's own error page, never the router's developer page,
// and a stale page file (a new release) reloads the page once by itself.
import { render, screen } from '@testing-library/react'
import { Outlet, RouterProvider, createMemoryRouter } from 'react-router-dom'
import { SWRConfig } from 'swr'
import { AuthProvider } from '@/lib/auth'
import { CookieConsentProvider } from '@/features/cookies/CookieConsent'
import { mockServer, signedOut } from '@/test-utils'
import { RouteError, isStalePageError, reloadOnceForStalePage } from './RouteError'

afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
  window.sessionStorage.clear()
})

function renderFailing(error: Error) {
  mockServer({ 'GET /_api/auth/session': signedOut })
  // As in the app: the error page sits inside the root route's providers.
  const router = createMemoryRouter(
    [
      {
        element: (
          <CookieConsentProvider>
            <Outlet />
          </CookieConsentProvider>
        ),
        children: [
          {
            path: '/',
            errorElement: <RouteError />,
            loader: () => {
              throw error
            },
            element: <p>never shown</p>,
          },
        ],
      },
    ],
    { initialEntries: ['/'] },
  )
  return render(
    <SWRConfig value={{ provider: () => new Map() }}>
      <AuthProvider>
        <RouterProvider router={router} />
      </AuthProvider>
    </SWRConfig>,
  )
}

describe('RouteError', () => {
  it('shows a plain message with the header and a way home, not the developer page', async () => {
    renderFailing(new Error('boom'))
    expect(await screen.findByRole('heading', { name: 'Something Went Wrong' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Go Home' })).toHaveAttribute('href', '/')
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument()
    expect(screen.getByRole('banner')).toBeInTheDocument()
    expect(screen.queryByText(/Hey developer/)).not.toBeInTheDocument()
  })

  it('says a page file could not be loaded when one was not fetched', async () => {
    // The reload is stubbed out: jsdom cannot navigate.
    window.sessionStorage.setItem('setupiq-reloaded-for-stale-page', String(Date.now()))
    renderFailing(new TypeError('Failed to fetch dynamically imported module: http://localhost/assets/Results-abc123.js'))
    expect(await screen.findByText('This page could not be loaded. Check your connection, then reload the page.')).toBeInTheDocument()
  })
})

describe("the app's router", () => {
  it('shows this page for every page under the layout', async () => {
    const { router } = await import('@/app/router')
    const layout = router.routes[0]?.children?.[0]
    expect(layout?.errorElement).toEqual(<RouteError />)
    expect(layout?.children?.length).toBeGreaterThan(10)
  })
})

describe('stale page files', () => {
  it('are told apart from other errors in every browser wording', () => {
    expect(isStalePageError(new TypeError('Failed to fetch dynamically imported module: /assets/a.js'))).toBe(true)
    expect(isStalePageError(new TypeError('Importing a module script failed.'))).toBe(true)
    expect(isStalePageError(new TypeError('error loading dynamically imported module: /assets/a.js'))).toBe(true)
    expect(isStalePageError(new Error('Cannot read properties of undefined'))).toBe(false)
  })

  it('reload the page once a minute at most', () => {
    const reload = vi.fn()
    const storage = window.sessionStorage
    expect(reloadOnceForStalePage(storage, 1_000_000, reload)).toBe(true)
    expect(reloadOnceForStalePage(storage, 1_030_000, reload)).toBe(false)
    expect(reload).toHaveBeenCalledTimes(1)
    expect(reloadOnceForStalePage(storage, 1_070_000, reload)).toBe(true)
    expect(reload).toHaveBeenCalledTimes(2)
  })
})
