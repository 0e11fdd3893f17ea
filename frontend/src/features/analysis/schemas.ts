import { z } from 'zod'
import type { AnalysisResult, AnalyzeRequest, AnalyzeResponse, SavedAnalysis } from './api'
import { MAX_DESCRIPTION, MIN_DESCRIPTION } from './limits'

export { MAX_DESCRIPTION, MIN_DESCRIPTION }

const tooLong = 'Please keep your description under 5000 characters.'
export const TOO_SHORT = 'Please describe your setup in at least 20 characters.'

/** The analysis request as the server validates it (spec 000 §5), typed against the API. */
export const analyzeRequestSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('image'),
    value: z.string().startsWith('data:image/', 'Invalid image format.'),
    description: z.string().max(MAX_DESCRIPTION, tooLong).optional(),
    previousAnalysisId: z.number().int().optional(),
  }),
  z.object({
    type: z.literal('text'),
    value: z
      .string()
      .trim()
      .min(MIN_DESCRIPTION, TOO_SHORT)
      .max(MAX_DESCRIPTION, tooLong),
    description: z.string().max(MAX_DESCRIPTION, tooLong).optional(),
    previousAnalysisId: z.number().int().optional(),
  }),
]) satisfies z.ZodType<AnalyzeRequest>

/**
 * The home form's photo path: the photo is required, the description optional; a description
 * that is given needs the same 20 characters as a text analysis.
 */
export const analyzeFormSchema = z
  .object({
    photo: z.instanceof(File, { message: 'Please choose a photo of your setup.' }).nullable(),
    description: z
      .string()
      .max(MAX_DESCRIPTION, tooLong)
      .refine((text) => text.trim().length === 0 || text.trim().length >= MIN_DESCRIPTION, TOO_SHORT),
  })
  .strict()
  .refine((values) => values.photo !== null, { path: ['photo'], message: 'Please choose a photo of your setup.' })

export type AnalyzeFormValues = z.input<typeof analyzeFormSchema>

/** The home form's describe path: a text analysis instead of a photo (spec 000 §5). */
export const describeFormSchema = z
  .object({
    value: z.string().trim().min(MIN_DESCRIPTION, TOO_SHORT).max(MAX_DESCRIPTION, tooLong),
  })
  .strict()

export type DescribeFormInput = z.input<typeof describeFormSchema>
export type DescribeFormValues = z.output<typeof describeFormSchema>

function isResult(value: unknown): value is AnalysisResult {
  if (typeof value !== 'object' || value === null) return false
  const result = value as Partial<AnalysisResult>
  return typeof result.overallScore === 'number' && Array.isArray(result.categoryRatings) && Array.isArray(result.suggestions)
}

const savedAnalysisSchema = z.custom<SavedAnalysis>(
  (value) => typeof value === 'object' && value !== null && typeof (value as SavedAnalysis).id === 'number' && isResult((value as SavedAnalysis).result),
)

/**
 * What /results receives in the navigation state (spec 000 §2 "/results"): a request to
 * analyze, or a saved analysis to show. `result` is added once an analysis came back, so a
 * reload shows it again instead of analysing (and charging) twice.
 */
export const resultsStateSchema = z.union([
  z.object({
    type: z.enum(['image', 'text']).optional(),
    value: z.string().optional(),
    savedAnalysis: savedAnalysisSchema,
  }),
  z.object({
    type: z.enum(['image', 'text']),
    value: z.string(),
    fileName: z.string().optional(),
    description: z.string().optional(),
    /** Re-rate this setup: the member's analysis this one is compared with and linked to. */
    previousAnalysisId: z.number().int().optional(),
    result: z.custom<AnalyzeResponse>(isResult).optional(),
  }),
])

export type ResultsState = z.infer<typeof resultsStateSchema>
export type AnalyzeState = Extract<ResultsState, { fileName?: string }>

/** The navigation state, or null when there is none worth showing (the page redirects home). */
export function readResultsState(state: unknown): ResultsState | null {
  const parsed = resultsStateSchema.safeParse(state)
  return parsed.success ? parsed.data : null
}
