/** Pure rules of the admin panel (spec product-rigpage-admin §2, §4, §8, §9). */

import type { Schemas } from '@/api/client'
import { plural, pluralFormatted } from '@/lib/plural'

export type Period = Schemas['AnalyticsPeriod']
export type CategorySort = Schemas['CategorySort']
export type AccountChange = Schemas['AccountChangeDto']
export type BulkAction = Schemas['BulkActionDto']

export const PERIODS: { value: Period; label: string }[] = [
  { value: '7d', label: 'Last 7 days' },
  { value: '30d', label: 'Last 30 days' },
  { value: '90d', label: 'Last 90 days' },
  { value: 'all', label: 'All time' },
]

export const DEFAULT_PERIOD: Period = '30d'
/** Top products shown (§9). */
export const TOP_PRODUCTS_LIMIT = 5
/** Admin-log entries per page. */
export const LOG_PAGE_SIZE = 20
/** Contact messages per page of the admin inbox. */
export const INBOX_PAGE_SIZE = 20
/** Admin data is cached for 5 minutes (§4, §9). */
export const ADMIN_CACHE_MS = 5 * 60 * 1000
export const UNKNOWN_ERROR = 'An unknown error occurred.'

export const CATEGORY_COLUMNS: { key: CategorySort; label: string; numeric: boolean }[] = [
  { key: 'category', label: 'Category', numeric: false },
  { key: 'clickCount', label: 'Clicks', numeric: true },
  { key: 'uniqueSessions', label: 'Unique Sessions', numeric: true },
  { key: 'estimatedRevenue', label: 'Est. Revenue', numeric: true },
]

/** The server sorts by name ascending and by numbers descending. */
export function sortDirection(key: CategorySort): 'ascending' | 'descending' {
  return key === 'category' ? 'ascending' : 'descending'
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' })
const count = new Intl.NumberFormat('en-US')

/** Revenue in US dollars: `$1,234.50`. */
export function formatUsd(amount: number): string {
  return usd.format(Number.isFinite(amount) ? amount : 0)
}

/** A count with thousands separators: `12,345`. */
export function formatCount(value: number): string {
  return count.format(value)
}

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' })

/** A server timestamp for people (`Mar 14, 2026, 9:26 AM`); 'Never' when there is none. */
export function formatDateTime(value: string | null | undefined, never = 'Never'): string {
  if (!value) return never
  const date = new Date(value)
  return Number.isNaN(date.getTime()) ? never : dateTime.format(date)
}

/** A chart's day label (`Mar 14`) from `YYYY-MM-DD`, read as a UTC day. */
export function dayLabel(day: string): string {
  const date = new Date(`${day}T00:00:00Z`)
  if (Number.isNaN(date.getTime())) return day
  return date.toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' })
}

/** What a screen reader hears for the clicks chart. */
export function chartSummary(days: { day: string; clicks: number }[]): string {
  if (days.length === 0) return 'No clicks recorded in this period.'
  const total = days.reduce((sum, d) => sum + d.clicks, 0)
  const over = `over ${plural(days.length, 'day')}`
  // No click makes no day the busiest.
  if (total === 0) return `No clicks ${over}.`
  const best = days.reduce((top, d) => (d.clicks > top.clicks ? d : top))
  return `${pluralFormatted(total, formatCount(total), 'click')} ${over}; busiest day ${dayLabel(best.day)} with ${pluralFormatted(best.clicks, formatCount(best.clicks), 'click')}.`
}

export type Tone = 'danger' | 'warning' | 'neutral' | 'success'

/** What the last check saw of a link, and the link's health (unions of what the server sends). */
export type LinkVerdict = Schemas['LinkVerdict']
export type Health = Schemas['Health']
export type Action = Schemas['Action']
export type TargetKind = Schemas['TargetKind']
export type ReportReason = Schemas['ReportReason']

type LinkState = { health?: Health | null; verdict?: LinkVerdict | null; statusCode?: number | null }

/** A link's health as a readable badge: 'Dead (404)', 'Redirects to home page', … */
export function verdictLabel(link: LinkState): string {
  const code = link.statusCode ?? null
  const verdict = link.verdict ?? null
  if (verdict !== null && verdict !== 'healthy') return findingLabel(verdict, code)
  return healthLabel(link.health ?? null, code)
}

/** What a check found that is not a healthy page (every verdict has its words). */
function findingLabel(verdict: Exclude<LinkVerdict, 'healthy'>, code: number | null): string {
  switch (verdict) {
    case 'dead':
      return code ? `Dead (${code})` : 'Dead'
    case 'timeout':
      return 'Timeout'
    case 'error':
      return code ? `Error (${code})` : 'Connection error'
    case 'refused':
      return 'Connection refused'
    case 'home_page_redirect':
      return 'Redirects to home page'
    case 'tag_dropped':
      return 'Affiliate tag dropped'
    case 'bot_check':
      return 'Bot check (unknown)'
    case 'unreachable':
      return 'Could not check'
  }
}

function healthLabel(health: Health | null, code: number | null): string {
  switch (health) {
    case 'healthy':
      return 'Healthy'
    case 'dead':
      return code ? `Dead (${code})` : 'Dead'
    case 'warning':
      return 'Warning'
    case 'unknown':
      return 'Unknown'
    case null:
      return 'Not checked yet'
  }
}

const FAILED: ReadonlySet<LinkVerdict> = new Set<LinkVerdict>(['dead', 'timeout', 'error', 'refused'])

export function verdictTone(link: LinkState): Tone {
  if (link.health === 'dead' || (link.verdict != null && FAILED.has(link.verdict))) return 'danger'
  if (link.health === 'warning') return 'warning'
  if (link.health === 'healthy') return 'success'
  return 'neutral'
}

/** 'Accept redirect' is offered for warnings only (a redirect the checker did not expect). */
export function canAcceptRedirect(link: { health?: Health | null }): boolean {
  return link.health === 'warning'
}

/** Every action the server logs has its words (a new one fails the typecheck until it has). */
const ACTIONS: Record<Action, string> = {
  dismiss_reports: 'Dismissed reports',
  remove_setup: 'Removed setup',
  dismiss_comment_reports: 'Dismissed comment reports',
  remove_comment: 'Removed comment',
  grant_pro: 'Granted Pro',
  revoke_pro: 'Revoked Pro',
  grant_admin: 'Granted admin',
  revoke_admin: 'Removed admin',
  verify_email: 'Marked e-mail verified',
  delete_account: 'Deleted account',
  verify_links: 'Started a link check',
  verify_links_failed: 'Link check failed',
  replace_link: 'Replaced link',
  activate_product: 'Activated product',
  deactivate_product: 'Deactivated product',
  expect_redirect: 'Accepted redirect',
}

/** An admin-log action for people. */
export function actionLabel(action: Action): string {
  return ACTIONS[action]
}

const TARGETS: Record<TargetKind, string> = {
  setup: 'Setup',
  comment: 'Comment',
  user: 'User',
  product: 'Product',
  run: 'Run',
}

/** An admin-log target: 'Setup #12'. */
export function targetLabel(targetType: TargetKind, targetId: number): string {
  return `${TARGETS[targetType]} #${targetId}`
}

export const REASON_LABELS: Record<ReportReason, string> = {
  illegal_content: 'Illegal content',
  hate_speech: 'Hate speech',
  copyright: 'Copyright violation',
  spam: 'Spam',
  harassment: 'Harassment',
  other: 'Other',
}

export function reasonLabel(reason: ReportReason): string {
  return REASON_LABELS[reason]
}

/** What the confirmation of an account change asks. */
export function changeQuestion(change: AccountChange, username: string): string {
  switch (change) {
    case 'grant_pro':
      return `Grant Pro to @${username}? Their analyses become free.`
    case 'revoke_pro':
      return `Revoke Pro from @${username}?`
    case 'grant_admin':
      return `Make @${username} an admin? They will see every account and can moderate and change them.`
    case 'revoke_admin':
      return `Remove the admin role from @${username}?`
  }
}

/** The success toast of an account change. */
export function changeMessage(change: AccountChange, username: string): string {
  switch (change) {
    case 'grant_pro':
      return `@${username} is now Pro.`
    case 'revoke_pro':
      return `@${username} is no longer Pro.`
    case 'grant_admin':
      return `@${username} is now an admin.`
    case 'revoke_admin':
      return `@${username} is no longer an admin.`
  }
}

/** The bulk actions of the users table, in the order the bar offers them. */
export const BULK_ACTIONS: { action: BulkAction; label: string }[] = [
  { action: 'grant_pro', label: 'Grant Pro' },
  { action: 'revoke_pro', label: 'Remove Pro' },
  { action: 'verify', label: 'Mark verified' },
  { action: 'delete', label: 'Delete' },
]

const accounts = (count: number) => plural(count, 'account')

/** The one confirmation of a bulk action: the action and how many accounts. */
export function bulkQuestion(action: BulkAction, count: number): string {
  switch (action) {
    case 'grant_pro':
      return `Grant Pro to ${accounts(count)}?`
    case 'revoke_pro':
      return `Remove Pro from ${accounts(count)}?`
    case 'verify':
      return `Mark ${accounts(count)} as verified?`
    case 'delete':
      return `Delete ${accounts(count)}? This cannot be undone.`
  }
}

/** What the confirmation explains under its question. */
export function bulkDetails(action: BulkAction, count: number): string {
  const they = count === 1 ? 'Its' : 'Their'
  switch (action) {
    case 'grant_pro':
      return `${they} analyses become free. Accounts that already have Pro are skipped.`
    case 'revoke_pro':
      return 'Pro granted by an admin ends; a paid subscription keeps running. Accounts without a grant are skipped.'
    case 'verify':
      return 'As if the link mailed to each address had been followed. Verified accounts are skipped.'
    case 'delete':
      return `${they} analyses, posts, comments, RigPage and credits go too, and a running subscription is ended. Your own account and admins are skipped.`
  }
}

/** The confirm button of a bulk action. */
export function bulkConfirmLabel(action: BulkAction, count: number): string {
  switch (action) {
    case 'grant_pro':
      return 'Grant Pro'
    case 'revoke_pro':
      return 'Remove Pro'
    case 'verify':
      return 'Mark verified'
    case 'delete':
      return `Delete ${accounts(count)}`
  }
}

/** How a bulk action went: `2 accounts deleted; 1 skipped.` */
export function bulkSummary(action: BulkAction, changed: number, skipped: number): string {
  const done = (() => {
    switch (action) {
      case 'grant_pro':
        return `Pro granted to ${accounts(changed)}`
      case 'revoke_pro':
        return `Pro removed from ${accounts(changed)}`
      case 'verify':
        return `${accounts(changed)} marked verified`
      case 'delete':
        return `${accounts(changed)} deleted`
    }
  })()
  return skipped === 0 ? `${done}.` : `${done}; ${skipped} skipped.`
}

/* Brand assets (§2, §9): one SVG source, three PNG sizes. */

export type BrandVariant = 'full' | 'icon' | 'iq'

export const BRAND_ASSETS: { variant: BrandVariant; label: string; width: number; height: number; filename: string }[] = [
  { variant: 'full', label: 'Full logo', width: 2048, height: 2048, filename: 'setupiq-logo-2048.png' },
  { variant: 'icon', label: 'Icon only', width: 1024, height: 1024, filename: 'setupiq-icon-1024.png' },
  { variant: 'iq', label: '"IQ" only', width: 1200, height: 800, filename: 'setupiq-iq-1200x800.png' },
]

/** The app's brand colours (styles.css: --bg, --accent-strong, --accent-2, --text). */
export const BRAND = { background: '#0b0b12', from: '#8b5cf6', to: '#22d3ee', text: '#ececf4' } as const

export function brandSize(variant: BrandVariant): { width: number; height: number; filename: string } {
  const asset = BRAND_ASSETS.find((a) => a.variant === variant) ?? BRAND_ASSETS[0]!
  return { width: asset.width, height: asset.height, filename: asset.filename }
}

const FONT = "Inter, 'Segoe UI', Roboto, Arial, sans-serif"

/** The SVG markup of one logo variant, drawn at its exact PNG size. */
export function brandSvg(variant: BrandVariant): string {
  const { width, height } = brandSize(variant)
  const gradient = `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${BRAND.from}"/><stop offset="1" stop-color="${BRAND.to}"/></linearGradient><linearGradient id="t" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#a78bfa"/><stop offset="1" stop-color="${BRAND.to}"/></linearGradient></defs>`
  const open = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${gradient}`
  let body: string
  if (variant === 'icon') {
    // The header's logo mark: a rounded gradient square with "IQ".
    const r = Math.round(width * 0.22)
    body = `<rect width="${width}" height="${height}" rx="${r}" fill="url(#g)"/><text x="50%" y="50%" dominant-baseline="central" text-anchor="middle" font-family="${FONT}" font-weight="900" font-size="${Math.round(width * 0.46)}" fill="${BRAND.background}">IQ</text>`
  } else if (variant === 'iq') {
    body = `<rect width="${width}" height="${height}" fill="${BRAND.background}"/><text x="50%" y="50%" dominant-baseline="central" text-anchor="middle" font-family="${FONT}" font-weight="900" font-size="${Math.round(height * 0.6)}" fill="url(#t)">IQ</text>`
  } else {
    const mark = Math.round(width * 0.42)
    const x = Math.round((width - mark) / 2)
    const y = Math.round(height * 0.18)
    body = `<rect width="${width}" height="${height}" fill="${BRAND.background}"/><rect x="${x}" y="${y}" width="${mark}" height="${mark}" rx="${Math.round(mark * 0.22)}" fill="url(#g)"/><text x="${width / 2}" y="${y + mark / 2}" dominant-baseline="central" text-anchor="middle" font-family="${FONT}" font-weight="900" font-size="${Math.round(mark * 0.46)}" fill="${BRAND.background}">IQ</text><text x="${width / 2}" y="${Math.round(height * 0.8)}" dominant-baseline="central" text-anchor="middle" font-family="${FONT}" font-weight="800" font-size="${Math.round(width * 0.13)}" fill="${BRAND.text}">Setup<tspan fill="url(#t)">IQ</tspan></text>`
  }
  return `${open}${body}</svg>`
}
