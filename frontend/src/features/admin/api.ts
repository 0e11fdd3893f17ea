import { useCallback } from 'react'
import useSWR, { useSWRConfig, type SWRConfiguration } from 'swr'
import useSWRInfinite, { unstable_serialize } from 'swr/infinite'
import { toast } from '@/lib/toast'
import { api, messageOf, unwrap, type Schemas } from '@/api/client'
import { ADMIN_CACHE_MS, INBOX_PAGE_SIZE, LOG_PAGE_SIZE, TOP_PRODUCTS_LIMIT, UNKNOWN_ERROR, type AccountChange, type BulkAction, type CategorySort, type Period } from './logic'

export type Summary = Schemas['SummaryResponse']
export type TopProduct = Schemas['TopProductDto']
export type CategoryRow = Schemas['CategoryDto']
export type DailyClicks = Schemas['DailyClicksDto']
export type HealthReport = Schemas['HealthReportDto']
export type LinkProblem = Schemas['LinkProblemDto']
export type VerificationResult = Schemas['VerificationResult']
export type ReportedSetup = Schemas['ReportedSetupDto']
export type ReportedComment = Schemas['ReportedCommentDto']
export type Decision = Schemas['DecisionDto']
export type AdminAccount = Schemas['AdminAccountDto']
export type BulkResult = Schemas['BulkUsersResponse']
export type LogPage = Schemas['LogResponse']
export type LogEntry = Schemas['LogEntryDto']
export type InboxPage = Schemas['InboxResponse']
export type ContactMessage = Schemas['ContactMessageDto']

export const HEALTH_KEY = 'admin-link-health'
export const REPORTS_KEY = 'admin-reports'
export const COMMENT_REPORTS_KEY = 'admin-comment-reports'

export async function fetchSummary(period: Period): Promise<Summary> {
  return unwrap(await api.GET('/_api/analytics/summary', { params: { query: { period } } }), 'Failed to fetch analytics summary.')
}

export async function fetchTopProducts(period: Period): Promise<TopProduct[]> {
  const result = await api.GET('/_api/analytics/top-products', { params: { query: { limit: TOP_PRODUCTS_LIMIT, period } } })
  return unwrap(result, 'Failed to fetch top products.')
}

export async function fetchCategories(period: Period, sortBy: CategorySort): Promise<CategoryRow[]> {
  const result = await api.GET('/_api/analytics/category-performance', { params: { query: { sortBy, period } } })
  return unwrap(result, 'Failed to fetch category performance.')
}

export async function fetchDailyClicks(period: Period): Promise<DailyClicks[]> {
  return unwrap(await api.GET('/_api/analytics/daily-clicks', { params: { query: { period } } }), 'Failed to fetch daily clicks.')
}

export async function fetchHealthReport(): Promise<HealthReport> {
  return unwrap(await api.GET('/_api/admin/link-health-report'), 'Failed to fetch link health report.')
}

export async function verifyLinks(body: Schemas['VerifyLinksRequest'] = {}): Promise<VerificationResult> {
  return unwrap(await api.POST('/_api/admin/verify-links', { body }), 'Link verification failed.')
}

export async function replaceLink(body: Schemas['ReplaceLinkRequest']) {
  return unwrap(await api.POST('/_api/admin/products/replace-link', { body }), 'Failed to replace the link.')
}

export async function setActive(productId: number, active: boolean) {
  return unwrap(await api.POST('/_api/admin/products/set-active', { body: { productId, active } }), 'Failed to update the product.')
}

/** Switches every chosen product that is off back on, its failure count started over. */
export async function activateProducts(productIds: number[]): Promise<number> {
  const result = unwrap(await api.POST('/_api/admin/products/activate', { body: { productIds } }), 'Failed to activate the products.')
  return result.activated
}

/** Switches every chosen product that is on off (each logged). */
export async function deactivateProducts(productIds: number[]): Promise<number> {
  const result = unwrap(await api.POST('/_api/admin/products/deactivate', { body: { productIds } }), 'Failed to deactivate the products.')
  return result.deactivated
}

export async function expectRedirect(productId: number) {
  return unwrap(await api.POST('/_api/admin/products/expect-redirect', { body: { productId } }), 'Failed to accept the redirect.')
}

export async function fetchReports(): Promise<ReportedSetup[]> {
  return unwrap(await api.GET('/_api/admin/reports'), 'Failed to fetch reports.')
}

export async function decideReports(setupId: number, decision: Decision, note?: string) {
  const body: Schemas['DecideRequest'] = note ? { setupId, decision, note } : { setupId, decision }
  return unwrap(await api.POST('/_api/admin/reports/decide', { body }), 'Failed to save the decision.')
}

export async function fetchCommentReports(): Promise<ReportedComment[]> {
  return unwrap(await api.GET('/_api/admin/comment-reports'), 'Failed to fetch reports.')
}

export async function decideCommentReports(commentId: number, decision: Decision, note?: string) {
  const body: Schemas['DecideCommentRequest'] = note ? { commentId, decision, note } : { commentId, decision }
  return unwrap(await api.POST('/_api/admin/comment-reports/decide', { body }), 'Failed to save the decision.')
}

export type UsersPage = Schemas['AdminUsersResponse']

export async function findUsers(query: string, offset: number): Promise<UsersPage> {
  const params = { query: { ...(query ? { query } : {}), ...(offset ? { offset } : {}) } }
  return unwrap(await api.GET('/_api/admin/users', { params }), 'Failed to search users.')
}

export async function changeAccount(userId: number, change: AccountChange): Promise<AdminAccount> {
  return unwrap(await api.POST('/_api/admin/users/change', { body: { userId, change } }), 'Failed to change the account.')
}

/** One action on the chosen accounts (each logged); which changed and which were skipped, and why. */
export async function bulkChangeUsers(userIds: number[], action: BulkAction): Promise<BulkResult> {
  return unwrap(await api.POST('/_api/admin/users/bulk', { body: { userIds, action } }), 'Failed to change the accounts.')
}

export async function fetchLog(offset: number): Promise<LogPage> {
  return unwrap(await api.GET('/_api/admin/log', { params: { query: { limit: LOG_PAGE_SIZE, offset } } }), 'Failed to fetch the admin log.')
}

export async function fetchInbox(offset: number): Promise<InboxPage> {
  const result = await api.GET('/_api/admin/contact-messages', { params: { query: { limit: INBOX_PAGE_SIZE, offset } } })
  return unwrap(result, 'Failed to fetch the contact messages.')
}

/**
 * Admin data is cached for 5 minutes and keeps the previous answer on screen while a new
 * period loads (§4). A failed read toasts once, with the server's message.
 */
function adminOptions(title: string): SWRConfiguration {
  return {
    dedupingInterval: ADMIN_CACHE_MS,
    keepPreviousData: true,
    revalidateOnFocus: false,
    onError: (error: unknown) => void toast.error(title, { id: title, description: messageOf(error, UNKNOWN_ERROR) }),
  }
}

export function useSummary(period: Period) {
  return useSWR(['admin-summary', period], ([, p]) => fetchSummary(p), adminOptions('Could not load analytics summary.'))
}

export function useTopProducts(period: Period) {
  return useSWR(['admin-top-products', period], ([, p]) => fetchTopProducts(p), adminOptions('Could not load top products.'))
}

export function useCategories(period: Period, sortBy: CategorySort) {
  return useSWR(['admin-categories', period, sortBy], ([, p, s]) => fetchCategories(p, s), adminOptions('Could not load category performance.'))
}

export function useDailyClicks(period: Period) {
  return useSWR(['admin-daily-clicks', period], ([, p]) => fetchDailyClicks(p), adminOptions('Could not load daily clicks.'))
}

export function useHealthReport() {
  return useSWR(HEALTH_KEY, fetchHealthReport, adminOptions('Could not load link health report.'))
}

export function useReports() {
  return useSWR(REPORTS_KEY, fetchReports, adminOptions('Could not load the moderation queue.'))
}

export function useCommentReports() {
  return useSWR(COMMENT_REPORTS_KEY, fetchCommentReports, adminOptions('Could not load the reported comments.'))
}

/** Accounts whose e-mail or username holds `query` (empty: all), newest first, a page from `offset`. */
export function useUserSearch(query: string, offset: number) {
  return useSWR(['admin-users', query, offset], ([, q, o]) => findUsers(q, o), {
    keepPreviousData: true,
    revalidateOnFocus: false,
    shouldRetryOnError: false,
  })
}

function logKey(index: number, previous: LogPage | null) {
  if (previous && (index * LOG_PAGE_SIZE >= previous.total || previous.entries.length < LOG_PAGE_SIZE)) return null
  return ['admin-log', index * LOG_PAGE_SIZE] as const
}

/** The admin log, newest first, 20 entries a page ('Load more'). */
export function useAdminLog() {
  return useSWRInfinite(logKey, ([, offset]) => fetchLog(offset), adminOptions('Could not load the admin log.'))
}

function inboxKey(index: number, previous: InboxPage | null) {
  if (previous && !previous.hasMore) return null
  return ['admin-inbox', index * INBOX_PAGE_SIZE] as const
}

/** The contact messages, newest first, a page at a time ('Load more'). */
export function useInbox() {
  return useSWRInfinite(inboxKey, ([, offset]) => fetchInbox(offset), adminOptions('Could not load the contact messages.'))
}

/** After an action: the link-health report, the reports, the users found and the log are read again. */
export function useRefreshAdmin() {
  const { mutate } = useSWRConfig()
  return useCallback(
    (what: { health?: boolean; reports?: boolean; users?: boolean } = {}) => {
      if (what.health) void mutate(HEALTH_KEY)
      if (what.reports) {
        void mutate(REPORTS_KEY)
        void mutate(COMMENT_REPORTS_KEY)
      }
      if (what.users) void mutate((key) => Array.isArray(key) && key[0] === 'admin-users')
      void mutate(unstable_serialize(logKey))
    },
    [mutate],
  )
}
