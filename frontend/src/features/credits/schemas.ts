import { z } from 'zod'
import type { Schemas } from '@/api/client'

/** Reads `MM / YY` (or `MMYY`, `MM/YY`) as month and four-digit year, or null. */
export function parseExpiry(value: string): { month: number; year: number } | null {
  const match = /^\s*(\d{2})\s*\/?\s*(\d{2})\s*$/.exec(value)
  if (!match) return null
  const month = Number(match[1])
  if (month < 1 || month > 12) return null
  return { month, year: 2000 + Number(match[2]) }
}

/** Whether an expiry lies in the past (a card is valid through its expiry month). */
export function isExpired({ month, year }: { month: number; year: number }, today = new Date()): boolean {
  return year < today.getFullYear() || (year === today.getFullYear() && month < today.getMonth() + 1)
}

/**
 * The test-mode card form, with the card form messages a payment provider shows. The
 * server decides what a number does (4242… succeeds, 4000 0000 0000 0002 is declined).
 */
export const testCardSchema = z
  .object({
    cardNumber: z
      .string()
      .transform((v) => v.replace(/[\s-]/g, ''))
      .pipe(z.string().regex(/^\d{13,19}$/, 'Your card number is incomplete.')),
    expiry: z
      .string()
      .refine((v) => parseExpiry(v) !== null, "Your card's expiration date is incomplete.")
      .refine((v) => {
        const parsed = parseExpiry(v)
        return parsed === null || !isExpired(parsed)
      }, "Your card's expiration date is in the past."),
    cvc: z.string().trim().regex(/^\d{3,4}$/, "Your card's security code is incomplete."),
  })
  .strict() satisfies z.ZodType<Pick<Schemas['TestModePayRequest'], 'cardNumber'>>

export type TestCardInput = z.input<typeof testCardSchema>
export type TestCardValues = z.output<typeof testCardSchema>
