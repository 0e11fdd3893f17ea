import { z } from 'zod'
import type { Schemas } from '@/api/client'

export const INVALID_URL = 'Please enter a valid URL.'

/** An http or https address with a host and no spaces (what the server accepts). */
export function isHttpUrl(value: string): boolean {
  if (/\s/.test(value) || value.length > 2048) return false
  try {
    const url = new URL(value)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== ''
  } catch {
    return false
  }
}

/** 'Replace link': the product's new affiliate address. */
export const replaceLinkSchema = z.object({
  productId: z.number().int().positive(),
  url: z.string().trim().refine(isHttpUrl, INVALID_URL),
}) satisfies z.ZodType<Schemas['ReplaceLinkRequest']>

export type ReplaceLinkValues = z.infer<typeof replaceLinkSchema>
