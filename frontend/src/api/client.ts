import createClient, { type Middleware } from 'openapi-fetch'
import type { components, paths } from './schema'

/**
 * What a visitor reads when the answer is not the server's JSON: a proxy's 502 page, an
 * HTML error page, a cut-off body. Never a parser's complaint.
 */
export const SERVICE_UNAVAILABLE = 'The service is briefly unavailable. Please try again in a moment.'

function isJson(text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

/** An error answer in the server's own shape, so `unwrap` reads it like any other. */
function unavailableResponse(status: number): Response {
  const body: ErrorBody = { error: SERVICE_UNAVAILABLE, code: 'unavailable' }
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
}

/**
 * Replaces any answer that should be JSON but is not (an error page, a 2xx that does not
 * parse) with an `unavailable` error, keeping the status of an error answer.
 */
export const jsonOrUnavailable: Middleware = {
  async onResponse({ response, options }) {
    if (response.ok && options.parseAs !== 'json') return undefined
    const text = await response.clone().text()
    if (response.ok ? text === '' || isJson(text) : text !== '' && isJson(text)) return undefined
    return unavailableResponse(response.ok ? 502 : response.status)
  },
  // The request never got an answer (offline, connection reset): not "Failed to fetch".
  onError({ error }) {
    if (error instanceof DOMException && error.name === 'AbortError') return undefined
    return new ApiError(0, SERVICE_UNAVAILABLE, [], 'unavailable')
  },
}

/** The typed API client; every call goes through it (types come from openapi.json). */
// An absolute base (the page's own origin) so requests also build outside a browser (tests).
export const api = createClient<paths>({
  baseUrl: typeof window === 'undefined' ? '' : window.location.origin,
  credentials: 'same-origin',
  // Looked up per call, so a test can stand in for the server.
  fetch: (request) => globalThis.fetch(request),
})
api.use(jsonOrUnavailable)

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
