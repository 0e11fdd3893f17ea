import { z } from 'zod'
import type { Schemas } from '@/api/client'

/**
 * The contact form's rules, with the specification's messages (spec 000 §5). Values are
 * trimmed first, as the server counts them; the upper limits mirror the server's.
 */
export const contactSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(2, 'Name must be at least 2 characters.')
      .max(100, 'Name cannot be longer than 100 characters.'),
    email: z
      .string()
      .trim()
      .pipe(z.email('Please enter a valid email address.').max(254, 'Email cannot be longer than 254 characters.')),
    message: z
      .string()
      .trim()
      .min(10, 'Message must be at least 10 characters.')
      .max(5000, 'Message cannot be longer than 5000 characters.'),
  })
  .strict() satisfies z.ZodType<Schemas['ContactRequest']>

export type ContactValues = z.infer<typeof contactSchema>
