import type { ReactNode } from 'react'
import { useSite, type Legal } from '@/api/resources'

/**
 * The operator's details on the legal pages, from the server's configuration
 * (`SETUPIQ_LEGAL_*`). What the operator has not provided is said once, at the top of the
 * page, and shown as a dash where it belongs: never a bracketed placeholder.
 */

/** The operator's details once loaded (undefined before). */
export function useLegal(): Legal | undefined {
  return useSite().data?.legal
}

/** What a page needs, named as a reader would: `[name, provided]`. */
export type Needed = [string, boolean]

/** One plain sentence listing what the operator has not provided yet, or nothing. */
export function MissingDetails({ legal, needed }: { legal: Legal | undefined; needed: Needed[] }) {
  const missing = needed.filter(([, provided]) => !provided).map(([name]) => name)
  if (!legal || missing.length === 0) return null
  return (
    <p className="legal-missing" role="note">
      The operator of this site has not provided {listed(missing)} yet.
    </p>
  )
}

function listed(items: string[]): string {
  if (items.length < 2) return items.join('')
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`
}

/** A detail, or a dash that says it is not provided. */
export function Detail({ value }: { value: ReactNode }) {
  if (value === null || value === undefined || value === '') return <span className="muted" aria-label="not provided">—</span>
  return <>{value}</>
}

/** "March 14, 2026" from the configured YYYY-MM-DD. */
export function policyDate(date: string): string {
  return new Date(`${date}T00:00:00Z`).toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' })
}
