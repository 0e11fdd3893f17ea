import { useEffect } from 'react'

export const SITE_NAME = 'SetupIQ'
/** The page title of the specification (spec 000 §1), shown after the name on the home page. */
export const SITE_TAGLINE = 'Gaming Setup Analyzer'

/** `Buy Credits · SetupIQ`; without a page name, the home page's `SetupIQ · Gaming Setup Analyzer`. */
export function pageTitle(page?: string): string {
  const name = page?.trim()
  return name ? `${name} · ${SITE_NAME}` : `${SITE_NAME} · ${SITE_TAGLINE}`
}

/**
 * Sets the document's title while the calling page is shown. One owner per page: the route
 * component (or, for a title that needs loaded data, the one feature page it renders).
 */
export function usePageTitle(page?: string): void {
  const title = pageTitle(page)
  useEffect(() => {
    document.title = title
  }, [title])
}
