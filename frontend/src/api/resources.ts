import useSWR, { type SWRConfiguration } from 'swr'
import { api, ApiError, unwrap, type Schemas } from './client'

/**
 * Server resources that more than one feature reads or refreshes: one SWR key, one
 * fetcher and one answer shape each (the generated schema's), so two screens can never
 * cache different shapes under the same key. A resource only one feature reads stays in
 * that feature's `api.ts`.
 */

export type MyAnalyses = Schemas['MyAnalysesResponse']
export type SavedAnalysis = Schemas['SavedAnalysisDto']

/** The signed-in user's 50 newest analyses (My Setups, the profile, publishing to Community). */
export const MY_ANALYSES_KEY = '/_api/my-analyses?limit=50'

/** The signed-in user's latest balance changes (the credits page; a charged RigPage save changes it). */
export const CREDIT_HISTORY_KEY = '/_api/credits/history'

export async function fetchMyAnalyses(): Promise<MyAnalyses> {
  const result = await api.GET('/_api/my-analyses', { params: { query: { limit: 50 } } })
  if (result.response.status === 401) throw new ApiError(401, 'Unauthorized')
  return unwrap(result, 'Failed to fetch analyses.')
}

/** No retry after a 401 (signed out); otherwise up to 3 (spec 000 §7). */
export function shouldRetry(error: unknown, retryCount: number): boolean {
  if (error instanceof ApiError && error.status === 401) return false
  return retryCount < 3
}

/** SWR's retries for a signed-in resource: [`shouldRetry`], backing off up to 8 s. */
export const retryUnlessSignedOut: Pick<SWRConfiguration, 'onErrorRetry'> = {
  onErrorRetry: (error, _key, _config, revalidate, { retryCount }) => {
    if (!shouldRetry(error, retryCount)) return
    setTimeout(() => void revalidate({ retryCount }), Math.min(1000 * 2 ** retryCount, 8000))
  },
}

const historyOptions: SWRConfiguration<MyAnalyses> = {
  dedupingInterval: 5 * 60_000,
  revalidateOnFocus: false,
  ...retryUnlessSignedOut,
}

/** The signed-in user's saved analyses, newest first: cached 5 minutes. */
export function useMyAnalyses(enabled: boolean) {
  return useSWR(enabled ? MY_ANALYSES_KEY : null, fetchMyAnalyses, historyOptions)
}

export type Site = Schemas['SiteResponse']
export type Legal = Schemas['LegalDto']

/** This deployment: its operator's details, its ad client and its analyzer (the footer, the legal pages, How We Score). */
export const SITE_KEY = '/_api/site'

export async function fetchSite(): Promise<Site> {
  return unwrap(await api.GET('/_api/site'), 'Could not load the site details.')
}

/** The same for every visitor and rarely changed: read once per visit. */
export function useSite() {
  return useSWR(SITE_KEY, fetchSite, { revalidateOnFocus: false, revalidateIfStale: false, shouldRetryOnError: false })
}
