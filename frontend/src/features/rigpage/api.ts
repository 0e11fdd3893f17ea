import { useCallback } from 'react'
import useSWR, { useSWRConfig, type SWRConfiguration } from 'swr'
import { api, ApiError, unwrap, type Schemas } from '@/api/client'
import { CREDIT_HISTORY_KEY, retryUnlessSignedOut } from '@/api/resources'
import { useAuth } from '@/lib/auth'
import type { ConfigRequest, Editor } from './draft'

export type SaveResponse = Schemas['SaveRigpageResponse']
export type Stats = Schemas['RigpageStatsResponse']
export type ImageKind = Schemas['ImageKind']
export type SetupOption = Schemas['SetupOption']

export const CONFIG_KEY = '/_api/rigpage/config'
export const THEMES_KEY = '/_api/rigpage/themes'
export const STATS_KEY = '/_api/rigpage/stats'
/** The QR code of the page's address (an SVG the browser loads as an image). */
export const QR_PATH = '/_api/rigpage/qr'

export async function fetchEditor(): Promise<Editor> {
  return unwrap(await api.GET('/_api/rigpage/config'), 'Failed to fetch RigPage config.')
}

export async function saveConfig(body: ConfigRequest): Promise<SaveResponse> {
  return unwrap(await api.POST('/_api/rigpage/config', { body }), 'Failed to save RigPage config.')
}

/** The draft rendered by the public page's renderer (nothing saved). */
export async function fetchPreview(body: ConfigRequest, signal?: AbortSignal): Promise<string> {
  const result = await api.POST('/_api/rigpage/preview', { body, ...(signal ? { signal } : {}) })
  return unwrap(result, 'Failed to render the preview.').html
}

export async function uploadImage(kind: ImageKind, imageData: string): Promise<string> {
  return unwrap(await api.POST('/_api/rigpage/images', { body: { kind, imageData } }), 'Failed to upload image.').url
}

export async function fetchThemes(): Promise<Schemas['ThemeDto'][]> {
  return unwrap(await api.GET('/_api/rigpage/themes'), 'Could not load the themes.').themes
}

export async function fetchStats(): Promise<Stats> {
  return unwrap(await api.GET('/_api/rigpage/stats'), 'Could not load your RigPage stats.')
}

/** The editor's data in a save's answer (without what the save cost). */
export function editorOf(saved: SaveResponse): Editor {
  const editor: Editor & { charged?: unknown } = { ...saved }
  delete editor.charged
  return editor
}

const configOptions: SWRConfiguration = {
  revalidateOnFocus: false,
  revalidateIfStale: false,
  ...retryUnlessSignedOut,
}

/** The editor's data, only for a signed-in user. */
export function useEditor(enabled: boolean) {
  return useSWR(enabled ? CONFIG_KEY : null, fetchEditor, configOptions)
}

/** The 13 themes with their presets: the server's table, cached for the session. */
export function useThemes() {
  return useSWR(THEMES_KEY, fetchThemes, { revalidateOnFocus: false, revalidateIfStale: false, dedupingInterval: 60 * 60_000 })
}

/** Views and clicks of the last 30 days. */
export function useStats(enabled: boolean) {
  return useSWR(enabled ? STATS_KEY : null, fetchStats, { revalidateOnFocus: true })
}

/**
 * Saves the page. A save that costs credits takes them from the shown balance at once
 * (spec §4 "Credit deduction"), gives them back when it fails, and shows the server's
 * balance when it succeeds; the config, the session and the history are read again.
 */
export function useSaveConfig() {
  const { user, setUser, refreshSession } = useAuth()
  const { mutate } = useSWRConfig()
  return useCallback(
    async (body: ConfigRequest, expectedCost: number): Promise<SaveResponse> => {
      const before = user
      if (before && expectedCost > 0) setUser({ ...before, credits: Math.max(0, before.credits - expectedCost) })
      try {
        const saved = await saveConfig(body)
        await mutate(CONFIG_KEY, editorOf(saved), { revalidate: false })
        if (before) setUser({ ...before, credits: saved.credits })
        refreshSession()
        if (saved.charged.credits > 0) void mutate(CREDIT_HISTORY_KEY)
        void mutate(STATS_KEY)
        return saved
      } catch (error) {
        if (before && expectedCost > 0) setUser(before)
        // The shown balance was stale: read the real one.
        if (error instanceof ApiError && error.code === 'insufficient_credits') refreshSession()
        throw error
      }
    },
    [user, setUser, refreshSession, mutate],
  )
}
