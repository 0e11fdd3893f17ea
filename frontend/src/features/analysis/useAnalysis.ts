import { useCallback, useEffect, useRef, useState } from 'react'
import { useNavigate } from 'react-router-dom'
import { toast } from '@/lib/toast'
import { useSWRConfig } from 'swr'
import { analyzeSetup, isRefused, MY_ANALYSES_KEY, needsCredits, type AnalyzeProgress, type AnalyzeResponse } from './api'
import { analyzeRequestSchema, type AnalyzeState } from './schemas'

export const ANALYSIS_COMPLETE = 'Your setup analysis is complete!'
export const ANALYSIS_ERROR_FALLBACK = "Sorry, we couldn't analyze your setup right now. Please try again."

export type AnalysisPhase =
  | { kind: 'loading'; progress: AnalyzeProgress }
  | { kind: 'done'; response: AnalyzeResponse }
  | { kind: 'needs-credits'; message: string }
  /** The server will not rate this input (not a setup, not a photo, not safe for work); retrying is pointless. */
  | { kind: 'refused'; message: string }
  | { kind: 'error'; message: string }

/**
 * Runs the analysis a /results visit asks for, once per attempt (`retry` starts another).
 * A result already in the navigation state is shown as it is. On success the balance
 * (through `balanceChanged`, the credits feature's hook, passed in by the page), the
 * history and the navigation state (so a reload does not analyse again) are updated.
 */
export function useAnalysis(request: AnalyzeState | null, balanceChanged: (credits?: number) => void) {
  const navigate = useNavigate()
  const { mutate } = useSWRConfig()
  const [attempt, setAttempt] = useState(0)
  const [phase, setPhase] = useState<AnalysisPhase>(() =>
    request?.result ? { kind: 'done', response: request.result } : { kind: 'loading', progress: { stage: 'uploading', fraction: 0 } },
  )
  const started = useRef<number | null>(null)
  const mounted = useRef(true)
  useEffect(() => {
    mounted.current = true
    return () => {
      mounted.current = false
    }
  }, [])

  // Kept in refs so an attempt starts only when `attempt` changes, not on every render.
  const latest = useRef({ request, balanceChanged, mutate, navigate })
  latest.current = { request, balanceChanged, mutate, navigate }

  useEffect(() => {
    const { request: current } = latest.current
    if (!current || (attempt === 0 && current.result) || started.current === attempt) return
    started.current = attempt
    setPhase({ kind: 'loading', progress: { stage: 'uploading', fraction: 0 } })
    const body = analyzeRequestSchema.safeParse({
      type: current.type,
      value: current.value,
      ...(current.description ? { description: current.description } : {}),
      ...(current.previousAnalysisId !== undefined ? { previousAnalysisId: current.previousAnalysisId } : {}),
    })
    if (!body.success) {
      setPhase({ kind: 'error', message: body.error.issues[0]?.message ?? ANALYSIS_ERROR_FALLBACK })
      return
    }
    analyzeSetup(body.data, (progress) => mounted.current && setPhase({ kind: 'loading', progress }))
      .then((response) => {
        const { balanceChanged: changed, mutate: revalidate, navigate: go } = latest.current
        if (response.creditsRemaining !== null && response.creditsRemaining !== undefined) changed(response.creditsRemaining)
        void revalidate(MY_ANALYSES_KEY)
        if (!mounted.current) return
        setPhase({ kind: 'done', response })
        toast.success(ANALYSIS_COMPLETE)
        // The stored photo replaces the data URL; a reload shows this result again.
        const { value, ...rest } = current
        const state: AnalyzeState = { ...rest, value: response.imageUrl ? '' : value, result: response }
        go('.', { replace: true, state })
      })
      .catch((error: unknown) => {
        if (!mounted.current) return
        const message = error instanceof Error && error.message ? error.message : ANALYSIS_ERROR_FALLBACK
        if (needsCredits(error)) {
          setPhase({ kind: 'needs-credits', message })
          latest.current.balanceChanged()
        } else if (isRefused(error)) {
          setPhase({ kind: 'refused', message })
        } else {
          setPhase({ kind: 'error', message })
        }
      })
  }, [attempt])

  const retry = useCallback(() => setAttempt((n) => n + 1), [])
  return { phase, retry }
}
