import createClient from 'openapi-fetch'
import type { components, paths } from './schema'

/** The typed API client; every call goes through it (types come from openapi.json). */
// An absolute base (the page's own origin) so requests also build outside a browser (tests).
export const api = createClient<paths>({
  baseUrl: typeof window === 'undefined' ? '' : window.location.origin,
  credentials: 'same-origin',
  // Looked up per call, so a test can stand in for the server.
  fetch: (request) => globalThis.fetch(request),
})

export type Schemas = components['schemas']
export type User = Schemas['UserDto']
export type ErrorBody = Schemas['ErrorBody']
/** The stable names of failures the UI switches on (`insufficient_credits`, `daily_ad_limit`, …). */
export type ErrorCode = Schemas['ErrorCode']

/** A failed API call, with the server's message and validation issues. */
export class ApiError extends Error {
  readonly status: number
  readonly issues: Schemas['Issue'][]
  /** The server's stable error code (`insufficient_credits`, …), when it sent one: switch on this, not on the message. */
  readonly code: ErrorCode | undefined

  constructor(status: number, message: string, issues: Schemas['Issue'][] = [], code?: ErrorCode) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.issues = issues
    this.code = code
  }
}

function isErrorBody(value: unknown): value is ErrorBody {
  return typeof value === 'object' && value !== null && typeof (value as ErrorBody).error === 'string'
}

/**
 * Unwraps an openapi-fetch result: the data, or an `ApiError` carrying the server's
 * `error` message (or `fallback`).
 */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }, fallback: string): T {
  if (result.data !== undefined && result.response.ok) return result.data
  const body = result.error
  if (isErrorBody(body)) throw new ApiError(result.response.status, body.error, body.issues ?? [], body.code)
  throw new ApiError(result.response.status, fallback)
}

/** The message of any error, for toasts and alerts. */
export function messageOf(error: unknown, fallback: string): string {
  if (error instanceof Error && error.message) return error.message
  return fallback
}
