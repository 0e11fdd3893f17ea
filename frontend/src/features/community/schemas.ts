import { z } from 'zod'
import { DESCRIPTION_MAX, REPORT_DETAILS_MAX, REPORT_REASONS, TITLE_MAX, type ReportReason } from './logic'
import { CommentRequest } from '@/api/limits'

/** The server's rule (1 to 1000 characters after trimming), checked before sending. */
export const COMMENT_MAX = CommentRequest.body.maxLength
const COMMENT_LENGTH = 'Comment must be between 1 and 1000 characters.'

/** A comment's length as the server counts it: characters (not UTF-16 units) after trimming. */
export function commentLength(body: string): number {
  return [...body.trim()].length
}

export const commentSchema = z.object({
  body: z.string().trim().min(1, COMMENT_LENGTH).refine((body) => commentLength(body) <= COMMENT_MAX, COMMENT_LENGTH),
})
export type CommentValues = z.infer<typeof commentSchema>

/** What a report for 'Other' must say. */
export const OTHER_NEEDS_DETAILS = 'Please tell us what is wrong.'

/**
 * A report: one of the reasons, and details the server takes (at most 500 characters); 'Other'
 * says nothing by itself, so it needs the details.
 */
export const reportSchema = z
  .object({
    reason: z.enum(REPORT_REASONS.map((r) => r.value) as [ReportReason, ...ReportReason[]], { message: 'Please select a reason.' }),
    details: z.string().trim().max(REPORT_DETAILS_MAX, 'Additional details cannot exceed 500 characters.'),
  })
  .refine((report) => report.reason !== 'other' || report.details.length > 0, { path: ['details'], message: OTHER_NEEDS_DETAILS })
export type ReportValues = z.infer<typeof reportSchema>

/** A post's words as the server takes them (its photos are checked beside them). */
export const postWordsSchema = z.object({
  title: z.string().trim().max(TITLE_MAX, 'Title cannot exceed 200 characters.'),
  description: z.string().trim().max(DESCRIPTION_MAX, 'Description cannot exceed 500 characters.'),
})
export type PostWordsValues = z.infer<typeof postWordsSchema>
