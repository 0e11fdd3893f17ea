import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react'
import useSWR, { useSWRConfig } from 'swr'
import { api, type User } from '@/api/client'

/**
 * The signed-in user, app-wide: every feature reads it from here (features never import
 * each other). The session check lives with it; login, registration and the account
 * forms are the auth feature's (`features/auth`).
 */

/** What the session check answers: a user, or why there is none. */
export type Session = { user: User; error?: undefined } | { user: null; error: string }

export const SESSION_KEY = '/_api/auth/session'

export async function fetchSession(): Promise<Session> {
  const result = await api.GET('/_api/auth/session')
  // A visitor is an answer (200, user null), so the browser logs no failed request.
  if (result.data?.user) return { user: result.data.user }
  if (result.data) return { user: null, error: result.data.error ?? 'Not authenticated' }
  throw new Error(result.error?.error ?? 'Session check failed')
}

async function logoutCall(): Promise<void> {
  await api.POST('/_api/auth/logout', { body: {} })
}

/** The three states of spec 000 §4. */
export type AuthState =
  | { status: 'loading' }
  | { status: 'authenticated'; user: User }
  | { status: 'unauthenticated'; error: string }

export type AuthTab = 'login' | 'register'

interface AuthContextValue {
  state: AuthState
  user: User | null
  /** Puts a user returned by the server into the cache (login, register, profile edits). */
  setUser: (user: User) => void
  /**
   * A sign-in or sign-up from this browser: the user, and the analysis the browser's free
   * result (made just before as a visitor) became, if the server saved it to the account.
   */
  signIn: (user: User, claimedAnalysisId?: number | null) => void
  /** The analysis this browser's free result became at the last sign-in or sign-up, if any. */
  claimedAnalysisId: number | null
  /** Reads the session from the server again (after the balance changed). */
  refreshSession: () => void
  logout: () => Promise<void>
  /** Forgets the session and every cached server state (after account deletion). */
  clearSession: () => Promise<void>
  /** Opens the sign-in dialog; `reason` says why signing in is needed for what was clicked. */
  openAuth: (tab?: AuthTab, reason?: string) => void
  closeAuth: () => void
  authDialog: { open: boolean; tab: AuthTab; reason?: string | undefined }
}

const AuthContext = createContext<AuthContextValue | null>(null)

export function AuthProvider({ children }: { children: ReactNode }) {
  const { mutate } = useSWRConfig()
  const [authDialog, setAuthDialog] = useState<{ open: boolean; tab: AuthTab; reason?: string | undefined }>({ open: false, tab: 'login' })
  const [claimedAnalysisId, setClaimedAnalysisId] = useState<number | null>(null)
  // Checked once and retried once on failure; never refetched automatically.
  const { data, error, isLoading } = useSWR<Session>(SESSION_KEY, fetchSession, {
    revalidateOnFocus: false,
    revalidateOnReconnect: false,
    revalidateIfStale: false,
    errorRetryCount: 1,
  })

  const state: AuthState = useMemo(() => {
    if (data?.user) return { status: 'authenticated', user: data.user }
    if (data) return { status: 'unauthenticated', error: data.error }
    if (error) return { status: 'unauthenticated', error: error instanceof Error && error.message ? error.message : 'Session check failed' }
    if (isLoading) return { status: 'loading' }
    return { status: 'unauthenticated', error: 'Session check failed' }
  }, [data, error, isLoading])

  const setUser = useCallback((user: User) => void mutate(SESSION_KEY, { user } satisfies Session, { revalidate: false }), [mutate])

  const refreshSession = useCallback(() => void mutate(SESSION_KEY), [mutate])

  const signIn = useCallback(
    (user: User, claimed?: number | null) => {
      setClaimedAnalysisId(claimed ?? null)
      setUser(user)
    },
    [setUser],
  )

  const clearSession = useCallback(async () => {
    setClaimedAnalysisId(null)
    await mutate(SESSION_KEY, { user: null, error: 'Not authenticated' } satisfies Session, { revalidate: false })
    await mutate((key) => key !== SESSION_KEY, undefined, { revalidate: false })
  }, [mutate])

  const logout = useCallback(async () => {
    setClaimedAnalysisId(null)
    await mutate(SESSION_KEY, { user: null, error: 'Not authenticated' } satisfies Session, { revalidate: false })
    try {
      await logoutCall()
    } finally {
      await mutate((key) => key !== SESSION_KEY, undefined, { revalidate: false })
    }
  }, [mutate])

  const value = useMemo<AuthContextValue>(
    () => ({
      state,
      user: state.status === 'authenticated' ? state.user : null,
      setUser,
      signIn,
      claimedAnalysisId,
      refreshSession,
      logout,
      clearSession,
      // Switching tabs keeps the reason of the dialog already open.
      openAuth: (tab: AuthTab = 'login', reason?: string) => setAuthDialog((d) => ({ open: true, tab, reason: reason ?? (d.open ? d.reason : undefined) })),
      closeAuth: () => setAuthDialog((d) => ({ ...d, open: false })),
      authDialog,
    }),
    [state, setUser, signIn, claimedAnalysisId, refreshSession, logout, clearSession, authDialog],
  )
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>
}

export function useAuth(): AuthContextValue {
  const context = useContext(AuthContext)
  if (!context) throw new Error('useAuth must be used inside <AuthProvider>')
  return context
}
