import { useEffect } from 'react'
import { Link, isRouteErrorResponse, useRouteError } from 'react-router-dom'
import { Footer } from './Footer'
import { Header } from './Header'

/** How long a reload for a stale page file counts as already tried. */
const RELOAD_WINDOW_MS = 60_000
const RELOAD_KEY = 'setupiq-reloaded-for-stale-page'

/**
 * Whether the error is a page file that could not be fetched: offline, or a new release
 * replaced the files this tab was built against (browsers word it differently).
 */
export function isStalePageError(error: unknown): boolean {
  const message = error instanceof Error ? `${error.name} ${error.message}` : String(error)
  return /Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module|ChunkLoadError|Unable to preload CSS/i.test(message)
}

/** Reloads once per minute at most, so a page that stays broken does not loop. */
export function reloadOnceForStalePage(storage: Storage, now: number, reload: () => void): boolean {
  const last = Number(storage.getItem(RELOAD_KEY) ?? 0)
  if (now - last < RELOAD_WINDOW_MS) return false
  storage.setItem(RELOAD_KEY, String(now))
  reload()
  return true
}

/**
 * What a page that failed to load or crashed shows: the app's header and footer, a plain
 * message and a way on, never the router's developer page. A stale page file (a new
 * release) reloads the page once by itself.
 */
export function RouteError() {
  const error = useRouteError()
  const stale = isStalePageError(error)
  useEffect(() => {
    if (stale) reloadOnceForStalePage(window.sessionStorage, Date.now(), () => window.location.reload())
  }, [stale])
  const notFound = isRouteErrorResponse(error) && error.status === 404
  return (
    <div className="app">
      <Header />
      <main id="main" tabIndex={-1}>
        <div className="container state card" role="alert">
          <h1>{notFound ? 'Page Not Found' : 'Something Went Wrong'}</h1>
          <p className="muted">
            {stale
              ? 'This page could not be loaded. Check your connection, then reload the page.'
              : 'Something went wrong while showing this page. Reloading usually helps.'}
          </p>
          <div className="row">
            <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>Reload</button>
            <Link to="/" className="btn btn-secondary">Go Home</Link>
          </div>
        </div>
      </main>
      <Footer />
    </div>
  )
}
