import { useCallback, useState } from 'react'
import type { AnalysisResult } from './api'

/** How a result is told: Honest (the analyzer's own words), Roast or Coach. The scores never change. */
export type Voice = 'honest' | 'roast' | 'coach'

export const VOICES: readonly { value: Voice; label: string }[] = [
  { value: 'honest', label: 'Honest' },
  { value: 'roast', label: 'Roast' },
  { value: 'coach', label: 'Coach' },
]

/** Where the last chosen voice is kept, so the next result opens in it. */
export const VOICE_KEY = 'setupiq.voice'

function isVoice(value: unknown): value is Voice {
  return VOICES.some((v) => v.value === value)
}

function safeLocalStorage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage
  } catch {
    return undefined
  }
}

/** The voice chosen last; Honest when none was (or storage is unavailable). */
export function readVoice(storage: Storage | undefined = safeLocalStorage()): Voice {
  try {
    const value = storage?.getItem(VOICE_KEY)
    return isVoice(value) ? value : 'honest'
  } catch {
    return 'honest'
  }
}

/** Remembers the choice; a browser without storage just forgets it. */
export function writeVoice(voice: Voice, storage: Storage | undefined = safeLocalStorage()): void {
  try {
    storage?.setItem(VOICE_KEY, voice)
  } catch {
    // Private mode or a full quota: the choice lasts for this page only.
  }
}

/** The voice results are shown in: the last one chosen, remembered when it changes. */
export function useVoice(): [Voice, (voice: Voice) => void] {
  const [voice, setVoice] = useState(() => readVoice())
  const choose = useCallback((next: Voice) => {
    setVoice(next)
    writeVoice(next)
  }, [])
  return [voice, choose]
}

/**
 * The result told in `voice`: its summary and each category's comment swapped for the voiced
 * ones (looked up by category; a category the voice has no line for keeps its own). Scores,
 * percentiles and everything else stay as they are.
 */
export function voicedResult<T extends AnalysisResult>(result: T, voice: Voice): T {
  if (voice === 'honest') return result
  const voiced = result.voices[voice]
  const comments = new Map(voiced.comments.map((c) => [c.category, c.comment]))
  return {
    ...result,
    summary: voiced.summary || result.summary,
    categoryRatings: result.categoryRatings.map((rating) => ({ ...rating, comment: comments.get(rating.category) ?? rating.comment })),
  }
}

/** A shared result's link (page or card) in `voice`: `?voice=roast` or `?voice=coach`; Honest is the plain link. */
export function voicedUrl(url: string, voice: Voice): string {
  if (voice === 'honest') return url
  const parsed = new URL(url, 'http://localhost')
  parsed.searchParams.set('voice', voice)
  // Keep a relative link relative.
  return /^[a-z][a-z0-9+.-]*:/i.test(url) ? parsed.toString() : `${parsed.pathname}${parsed.search}${parsed.hash}`
}
