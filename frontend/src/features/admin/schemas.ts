import { z } from 'zod'
import type { Schemas } from '@/api/client'
import { isHttpUrl } from '@/lib/url'

export const INVALID_URL = 'Please enter a valid URL.'


/** 'Replace link': the product's new affiliate address. */
export const replaceLinkSchema = z.object({
  productId: z.number().int().positive(),
  url: z.string().trim().refine(isHttpUrl, INVALID_URL),
}) satisfies z.ZodType<Schemas['ReplaceLinkRequest']>

export type ReplaceLinkValues = z.infer<typeof replaceLinkSchema>
