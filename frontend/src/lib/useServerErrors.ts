import { useCallback, useEffect, useRef } from 'react'
import type { FieldPath, FieldValues, UseFormReturn } from 'react-hook-form'

/** Where a server error shows: under a field, or above the form (`root.server`). */
export type ServerErrorTarget<T extends FieldValues> = FieldPath<T> | `root.${string}`

/**
 * Server errors for a react-hook-form form that go stale the moment the user edits any
 * field: the returned `showServerError` sets one, and the next keystroke (or pick) clears
 * every one it set. Client validation keeps its own rules (it runs right after).
 */
export function useServerErrors<T extends FieldValues>({ watch, setError, clearErrors }: Pick<UseFormReturn<T>, 'watch' | 'setError' | 'clearErrors'>) {
  const shown = useRef(new Set<ServerErrorTarget<T>>())

  useEffect(() => {
    const subscription = watch((_values, { type }) => {
      if (type !== 'change' || shown.current.size === 0) return
      const stale = [...shown.current]
      shown.current.clear()
      for (const target of stale) clearErrors(target)
    })
    return () => subscription.unsubscribe()
  }, [watch, clearErrors])

  return useCallback(
    (target: ServerErrorTarget<T>, message: string) => {
      shown.current.add(target)
      setError(target, { type: 'server', message })
    },
    [setError],
  )
}
