/** Pure rules of the community screens (spec §4 Voting, Publish dialog; §9 limits). */

import type { Schemas } from '@/api/client'
import { PublishRequest, ReportRequest } from '@/api/limits'

export type Filter = Schemas['FeedPeriod']
export type Sort = Schemas['FeedSort']
export type VoteValue = Schemas['VoteValue']

export const PAGE_SIZE = 20
export const MAX_IMAGES = PublishRequest.images.maxItems
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024
export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const
export const TITLE_MAX = PublishRequest.title.maxLength
export const DESCRIPTION_MAX = PublishRequest.description.maxLength
export const REPORT_DETAILS_MAX = ReportRequest.additionalDetails.maxLength
/** The edit window after publishing. */
export const EDIT_WINDOW_MS = 60 * 60 * 1000

export const FILTERS: { value: Filter; label: string }[] = [
  { value: 'all', label: 'All Time' },
  { value: 'month', label: 'This Month' },
  { value: 'week', label: 'This Week' },
]

export const SORTS: { value: Sort; label: string }[] = [
  { value: 'top', label: 'Top' },
  { value: 'new', label: 'New' },
  { value: 'hot', label: 'Hot' },
]

export const REPORT_REASONS: readonly { value: ReportReason; label: string }[] = [
  { value: 'illegal_content', label: 'Illegal content' },
  { value: 'hate_speech', label: 'Hate speech' },
  { value: 'copyright', label: 'Copyright violation' },
  { value: 'spam', label: 'Spam' },
  { value: 'harassment', label: 'Harassment' },
  { value: 'other', label: 'Other' },
]
export type ReportReason = Schemas['ReportReason']

/**
 * A vote's effect: the same value again removes it (score minus the value); another value
 * switches (score changes by the difference).
 */
export function applyVote(score: number, current: VoteValue | null | undefined, value: VoteValue): { score: number; userVote: VoteValue | null } {
  const previous = current === 1 || current === -1 ? current : 0
  if (previous === value) return { score: score - value, userVote: null }
  return { score: score - previous + value, userVote: value }
}

/** How many photos may be added besides the analysis's own photo (5 in all). */
export function maxExtraImages(includesAnalysisPhoto: boolean, withBeforePhoto = false): number {
  return (includesAnalysisPhoto ? MAX_IMAGES - 1 : MAX_IMAGES) - (withBeforePhoto ? 1 : 0)
}

/**
 * The photo a re-rated photo analysis was re-rated from, while it is there to show beside it
 * (its thumbnail when it has one): what a post of it may carry as its before photo. Null for a
 * first rating, a described setup, and an earlier analysis deleted or described in words.
 */
export function beforePhotoOf(analysis: Pick<Schemas['SavedAnalysisDto'], 'inputType' | 'result'>): string | null {
  if (analysis.inputType !== 'image') return null
  const progress = analysis.result.progress
  if (!progress?.previousImageUrl) return null
  return progress.previousThumbnailUrl ?? progress.previousImageUrl
}

/** The label of photo `index` of a post whose before photo is `beforeIndex`: none without one. */
export function photoLabel(index: number, beforeIndex: number | null | undefined): 'Before' | 'After' | null {
  if (beforeIndex === null || beforeIndex === undefined) return null
  return index === beforeIndex ? 'Before' : 'After'
}

type FileLike = Pick<File, 'name' | 'type' | 'size'>

/** Checks picked photos against the count, type and size rules: the accepted files, or the problem. */
export function checkNewImages<F extends FileLike>(files: readonly F[], current: number, max: number): { files: F[]; error: string | null } {
  if (current + files.length > max) {
    return { files: [], error: `Maximum ${max} images allowed. You can add ${Math.max(0, max - current)} more.` }
  }
  for (const file of files) {
    if (!(IMAGE_TYPES as readonly string[]).includes(file.type)) return { files: [], error: 'Invalid file type. Please use JPEG, PNG, or WEBP.' }
    if (file.size > MAX_IMAGE_BYTES) return { files: [], error: `File "${file.name}" is too large. Maximum size is 5MB.` }
  }
  return { files: [...files], error: null }
}

export type WinnerMark = { rank: 1 | 2 | 3; medal: 'gold' | 'silver' | 'bronze'; label: string }

/**
 * The top 3 of a period sorted by top are winners; none for all time or other sorts, and
 * none without a vote in their favour (a score of 1 or more): a week nobody voted in has
 * no "Top of The Week".
 */
export function winnerMark(index: number, filter: Filter, sort: Sort, score: number): WinnerMark | null {
  if (filter === 'all' || sort !== 'top' || index > 2 || score < 1) return null
  const label = filter === 'week' ? 'Top of The Week' : 'Top of The Month'
  const medals = ['gold', 'silver', 'bronze'] as const
  return { rank: (index + 1) as 1 | 2 | 3, medal: medals[index]!, label }
}

/** Whether a setup may still be edited (within 1 hour of publishing). */
export function canEdit(createdAt: string, now: number = Date.now()): boolean {
  const created = Date.parse(createdAt)
  return Number.isFinite(created) && now - created < EDIT_WINDOW_MS
}

/** Moves one item of a list (drag to reorder). */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  const next = [...items]
  const [item] = next.splice(from, 1)
  if (item === undefined) return next
  next.splice(to, 0, item)
  return next
}

/** 'March 2026' */
export function monthYear(date: string): string {
  return new Date(date).toLocaleDateString('en-US', { month: 'long', year: 'numeric' })
}

/** One decimal, or 0.0. */
export function oneDecimal(value: number | null | undefined): string {
  return (value ?? 0).toFixed(1)
}
