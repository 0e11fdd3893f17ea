// Apart from the schemas so that the home form shows them without loading zod.
import { AnalyzeRequest } from '@/api/limits'

/** The server's floor too, but for a text analysis only, which its OpenAPI document cannot state. */
export const MIN_DESCRIPTION = 20
export const MAX_DESCRIPTION = AnalyzeRequest.description.maxLength
