import { api, ApiError, SERVICE_UNAVAILABLE, unwrap, type Schemas } from '@/api/client'
import type { SavedAnalysis } from '@/api/resources'

export type AnalyzeRequest = Schemas['AnalyzeRequest']
export type AnalyzeResponse = Schemas['AnalyzeResponse']
export type AnalysisResult = Schemas['AnalysisResult']
export type Suggestion = Schemas['Suggestion']
export type ProductRecommendation = Schemas['ProductRecommendation']
export type CategoryRating = Schemas['CategoryRatingDto']

export const ANALYZE_PATH = '/_api/analyze-setup'
export { MY_ANALYSES_KEY, useMyAnalyses, type SavedAnalysis } from '@/api/resources'

export const ANALYSIS_FALLBACK = 'An unknown error occurred during analysis.'

/** Where an analysis request is: sending the photo, then waiting for the analyzer. */
export type AnalyzeProgress = { stage: 'uploading'; fraction: number | null } | { stage: 'analyzing' }

/**
 * The server's own message (a used trial, a network's daily limit, no credits…) as it
 * wrote it; an answer that is not its JSON (a proxy's 502 page, HTML) says the service is
 * briefly unavailable rather than quoting a parser.
 */
export function errorFrom(status: number, text: string): ApiError {
  let body: Partial<Schemas['ErrorBody']> | null
  try {
    body = JSON.parse(text) as Partial<Schemas['ErrorBody']> | null
  } catch {
    return new ApiError(status, SERVICE_UNAVAILABLE, [], 'unavailable')
  }
  if (body && typeof body.error === 'string' && body.error) return new ApiError(status, body.error, body.issues ?? [], body.code)
  return new ApiError(status, status >= 500 ? SERVICE_UNAVAILABLE : ANALYSIS_FALLBACK)
}

/**
 * `POST /_api/analyze-setup`. Sent with XMLHttpRequest rather than the fetch client so the
 * page can show the photo's upload progress; the body and answer are the generated types.
 */
export function analyzeSetup(body: AnalyzeRequest, onProgress?: (progress: AnalyzeProgress) => void): Promise<AnalyzeResponse> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('POST', ANALYZE_PATH)
    xhr.setRequestHeader('Content-Type', 'application/json')
    xhr.setRequestHeader('Accept', 'application/json')
    xhr.withCredentials = true
    onProgress?.({ stage: 'uploading', fraction: 0 })
    xhr.upload.onprogress = (event) => {
      onProgress?.({ stage: 'uploading', fraction: event.lengthComputable && event.total > 0 ? event.loaded / event.total : null })
    }
    xhr.upload.onload = () => onProgress?.({ stage: 'analyzing' })
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          resolve(JSON.parse(xhr.responseText) as AnalyzeResponse)
        } catch {
          reject(new ApiError(502, SERVICE_UNAVAILABLE, [], 'unavailable'))
        }
        return
      }
      reject(errorFrom(xhr.status, xhr.responseText))
    }
    xhr.onerror = () => reject(new ApiError(0, 'An unexpected error occurred during analysis.'))
    xhr.send(JSON.stringify(body))
  })
}

/**
 * Whether an analysis failed for want of credits (`insufficient_credits`) or a used free
 * trial (`trial_used`): the credits dialog answers it. Decided by the server's error code.
 */
export function needsCredits(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false
  switch (error.code) {
    case 'insufficient_credits':
    case 'trial_used':
      return true
    default:
      return false
  }
}

/**
 * Whether the server refused the input as not rateable (422: not a desk or gaming setup,
 * a screenshot or an illustration, not safe for work). Nothing was charged and sending
 * the same input again gets the same answer: the user needs another photo.
 */
export function isRefused(error: unknown): boolean {
  return error instanceof ApiError && error.status === 422
}

export async function fetchAnalysis(id: number): Promise<SavedAnalysis> {
  return unwrap(await api.GET('/_api/analyses/{id}', { params: { path: { id } } }), 'Analysis not found.')
}

export type ShareLink = Schemas['ShareResponse']

// These two calls take no body, but the server only accepts JSON writes (CSRF protection):
// an empty object makes the client send one with `Content-Type: application/json`.
const EMPTY_JSON_BODY = {} as never

/** `POST /_api/analyses/{id}/share`: the public page of one's analysis (the same while it stays shared). */
export async function shareAnalysis(id: number): Promise<ShareLink> {
  return unwrap(await api.POST('/_api/analyses/{id}/share', { params: { path: { id } }, body: EMPTY_JSON_BODY }), 'Could not share your result.')
}

/** `POST /_api/analyses/{id}/unshare`: its public page stops working. */
export async function unshareAnalysis(id: number): Promise<void> {
  const result = await api.POST('/_api/analyses/{id}/unshare', { params: { path: { id } }, body: EMPTY_JSON_BODY })
  if (result.response.ok) return
  unwrap(result, 'Could not stop sharing your result.')
}

/** `POST /_api/analyses/{id}/delete`: the analysis is gone for good, with its photos, its share link and its community post. */
export async function deleteAnalysis(id: number): Promise<void> {
  const result = await api.POST('/_api/analyses/{id}/delete', { params: { path: { id } }, body: EMPTY_JSON_BODY })
  if (result.response.ok) return
  unwrap(result, 'Failed to delete analysis.')
}
