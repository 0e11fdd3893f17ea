import { useCallback } from 'react'
import useSWR, { useSWRConfig } from 'swr'
import { toast } from '@/lib/toast'
import useSWRInfinite, { unstable_serialize } from 'swr/infinite'
import { api, unwrap, type Schemas } from '@/api/client'
import { fetchSetups, type SetupsPage } from './feed'
import { applyVote, FILTERS, PAGE_SIZE, SORTS, type Filter, type ReportReason, type Sort, type VoteValue } from './logic'

export type CommunitySetup = Schemas['CommunitySetupDto']
export type Leader = Schemas['LeaderDto']
export type MyPostsResponse = Schemas['MyPostsResponse']
export type MyPost = Schemas['MyPostDto']
export type UserProfile = Schemas['ProfileResponse']
export { useMyAnalyses, type SavedAnalysis } from '@/api/resources'

export const MY_POSTS_KEY = '/_api/community/my-posts/analytics'

export async function fetchLeaderboard(filter: Filter): Promise<Leader[]> {
  return unwrap(await api.GET('/_api/community/leaderboard', { params: { query: { filter, limit: 50 } } }), 'Failed to fetch community leaderboard.')
}

export async function fetchMyPosts(): Promise<MyPostsResponse> {
  return unwrap(await api.GET('/_api/community/my-posts/analytics'), 'Failed to fetch post analytics.')
}

export async function fetchUserProfile(userId: number): Promise<UserProfile> {
  return unwrap(await api.GET('/_api/community/user-profile', { params: { query: { userId } } }), 'Failed to fetch user profile.')
}

export async function publishSetup(body: Schemas['PublishRequest']) {
  return unwrap(await api.POST('/_api/community/setup', { body }), 'Failed to upload setup.')
}

export async function editSetup(body: { setupId: number; images: string[]; title: string; description: string }) {
  return unwrap(await api.POST('/_api/community/setup/edit', { body }), 'Failed to update setup.')
}

/** Replaces the whole gear list of one of the caller's posts (an empty list removes it). */
export async function saveGear(setupId: number, items: Schemas['GearItemRequest'][]) {
  return unwrap(await api.POST('/_api/community/gear', { body: { setupId, items } }), 'Failed to save the gear.')
}

/** The caller's own post's gear with its links and clicks (the edit dialog). */
export async function fetchOwnGear(setupId: number) {
  return unwrap(await api.GET('/_api/community/gear/{setupId}', { params: { path: { setupId } } }), 'Failed to fetch the gear.')
}

export async function deleteSetup(setupId: number) {
  return unwrap(await api.POST('/_api/community/setup/delete', { body: { setupId } }), 'Failed to delete setup.')
}

export async function castVote(setupId: number, value: VoteValue) {
  return unwrap(await api.POST('/_api/community/vote', { body: { setupId, value } }), 'Failed to cast vote.')
}

export async function reportSetup(setupId: number, reason: ReportReason, additionalDetails?: string) {
  const body = additionalDetails ? { setupId, reason, additionalDetails } : { setupId, reason }
  return unwrap(await api.POST('/_api/community/report', { body }), 'Failed to submit report.')
}

export async function reportComment(commentId: number, reason: ReportReason, additionalDetails?: string) {
  const body = additionalDetails ? { commentId, reason, additionalDetails } : { commentId, reason }
  return unwrap(await api.POST('/_api/community/comment/report', { body }), 'Failed to submit report.')
}

/** A failed read says so once (one toast per list, however often SWR retries). */
function toastOnError(message: string) {
  return { onError: () => void toast.error(message, { id: message }) }
}

function setupsKey(filter: Filter, sort: Sort) {
  return (index: number, previous: SetupsPage | null) => {
    if (previous && !previous.pagination.hasMore) return null
    return ['community-setups', filter, sort, index * PAGE_SIZE] as const
  }
}

/** The community's setups, page after page ('Load more'). */
export function useSetups(filter: Filter, sort: Sort) {
  return useSWRInfinite(setupsKey(filter, sort), ([, f, s, offset]) => fetchSetups(f, s, offset), toastOnError('Failed to fetch community setups.'))
}

export function useLeaderboard(filter: Filter, enabled = true) {
  return useSWR(enabled ? ['community-leaderboard', filter] : null, ([, f]) => fetchLeaderboard(f), toastOnError('Failed to fetch community leaderboard.'))
}

export function useMyPosts(enabled: boolean) {
  return useSWR(enabled ? MY_POSTS_KEY : null, fetchMyPosts, toastOnError('Failed to fetch post analytics.'))
}

export function useUserProfile(userId: number) {
  return useSWR(Number.isFinite(userId) && userId > 0 ? ['community-user', userId] : null, ([, id]) => fetchUserProfile(id), {
    shouldRetryOnError: false,
    ...toastOnError('Failed to fetch user profile.'),
  })
}

/** Patches (or removes, on null) one setup of a list. */
export function patchList(setups: CommunitySetup[], setupId: number, patch: (setup: CommunitySetup) => CommunitySetup | null): CommunitySetup[] {
  return setups.flatMap((s) => {
    if (s.id !== setupId) return [s]
    const next = patch(s)
    return next ? [next] : []
  })
}

/** Patches one setup in a list of pages. */
export function patchPages(pages: SetupsPage[] | undefined, setupId: number, patch: (setup: CommunitySetup) => CommunitySetup | null): SetupsPage[] | undefined {
  return pages?.map((page) => ({ ...page, setups: patchList(page.setups, setupId, patch) }))
}

/** Every community list in the cache is refreshed (after a publish, edit or delete). */
export function useRefreshCommunity() {
  const { mutate } = useSWRConfig()
  return useCallback(() => {
    // Lists read page by page live under their own keys, which a key filter never matches.
    for (const { value: filter } of FILTERS) for (const { value: sort } of SORTS) void mutate(unstable_serialize(setupsKey(filter, sort)))
    void mutate((key) => {
      if (typeof key === 'string') return key === MY_POSTS_KEY || key.includes('community-setups')
      return Array.isArray(key) && typeof key[0] === 'string' && key[0].startsWith('community-')
    })
  }, [mutate])
}

export { applyVote, fetchSetups, type SetupsPage }

export type CommentsPage = Schemas['CommentsResponse']
export type Comment = Schemas['CommentDto']

/** How many threads a setup's dialog loads at once. */
export const COMMENT_PAGE = 50

export async function fetchComments(setupId: number): Promise<CommentsPage> {
  return unwrap(await api.GET('/_api/community/comments', { params: { query: { setupId, limit: COMMENT_PAGE } } }), 'Failed to load comments.')
}

/** The comments under a setup, one key per setup. */
export function useComments(setupId: number) {
  return useSWR(['community-comments', setupId] as const, ([, id]) => fetchComments(id), toastOnError('Failed to load comments.'))
}

export async function postComment(body: Schemas['CommentRequest']) {
  return unwrap(await api.POST('/_api/community/comment', { body }), 'Failed to post your comment.')
}

export async function editComment(commentId: number, body: string) {
  return unwrap(await api.POST('/_api/community/comment/edit', { body: { commentId, body } }), 'Failed to save your comment.')
}

export async function deleteComment(commentId: number) {
  return unwrap(await api.POST('/_api/community/comment/delete', { body: { commentId } }), 'Failed to delete the comment.')
}

export async function fetchSetup(setupId: number): Promise<CommunitySetup> {
  return unwrap(await api.GET('/_api/community/setups/{id}', { params: { path: { id: setupId } } }), 'Failed to load the setup.')
}

/** One setup for its own page (`/community/setup/:id`). */
export function useSetup(setupId: number) {
  return useSWR(Number.isFinite(setupId) && setupId > 0 ? ['community-setup', setupId] : null, ([, id]) => fetchSetup(id), {
    shouldRetryOnError: false,
  })
}

export type Notifications = Schemas['NotificationsResponse']
export type Notification = Schemas['NotificationDto']
export const NOTIFICATIONS_KEY = '/_api/notifications'

export async function fetchNotifications(): Promise<Notifications> {
  return unwrap(await api.GET('/_api/notifications', { params: { query: { limit: 10 } } }), 'Failed to load notifications.')
}

/** The bell's key: the unread count alone. */
export const UNREAD_KEY = '/_api/notifications/unread'

export async function fetchUnread(): Promise<number> {
  return unwrap(await api.GET('/_api/notifications/unread'), 'Failed to load notifications.').unread
}

export async function markNotificationsRead(body: Schemas['ReadRequest']) {
  return unwrap(await api.POST('/_api/notifications/read', { body }), 'Failed to mark notifications read.')
}

export type NotificationSettings = Schemas['NotificationSettingsDto']
export const NOTIFICATION_SETTINGS_KEY = '/_api/notifications/settings'

export async function fetchNotificationSettings(): Promise<NotificationSettings> {
  return unwrap(await api.GET('/_api/notifications/settings'), 'Failed to load your e-mail settings.')
}

export async function saveNotificationSettings(body: Schemas['NotificationSettingsRequest']): Promise<NotificationSettings> {
  return unwrap(await api.POST('/_api/notifications/settings', { body }), 'Failed to save your e-mail settings.')
}

/** The digest's one-click unsubscribe link, followed. */
export async function unsubscribeDigest(token: string) {
  return unwrap(await api.POST('/_api/notifications/unsubscribe', { params: { query: { token } } }), 'Failed to unsubscribe.')
}
