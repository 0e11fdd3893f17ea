import { z } from 'zod'

/** The server's rule (1 to 1000 characters after trimming), checked before sending. */
export const COMMENT_MAX = 1000
const COMMENT_LENGTH = 'Comment must be between 1 and 1000 characters.'

export const commentSchema = z.object({
  body: z.string().trim().min(1, COMMENT_LENGTH).max(COMMENT_MAX, COMMENT_LENGTH),
})
export type CommentValues = z.infer<typeof commentSchema>
