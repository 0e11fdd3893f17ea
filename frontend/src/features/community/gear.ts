import { z } from 'zod'
import type { Schemas } from '@/api/client'
import type { SavedAnalysis } from '@/api/resources'

export type GearCategory = Schemas['GearCategory']
export type GearItem = Schemas['GearItemDto']
export type OwnGearItem = Schemas['OwnGearItemDto']

/** The server's rules (issue 59): at most 20 items, names of 1 to 80 characters after trimming. */
export const GEAR_MAX = 20
export const GEAR_NAME_MAX = 80
export const GEAR_URL_MAX = 2048

export const GEAR_TOO_MANY = 'A setup can list at most 20 pieces of gear.'
export const GEAR_NAME_LENGTH = 'Each piece of gear needs a name of 1 to 80 characters.'
export const GEAR_URL = 'Gear links must be http or https addresses of a public website.'

/** The categories in the order the select offers them, with their labels. */
export const GEAR_CATEGORIES: { value: GearCategory; label: string }[] = [
  { value: 'monitor', label: 'Monitor' },
  { value: 'keyboard', label: 'Keyboard' },
  { value: 'mouse', label: 'Mouse' },
  { value: 'headset', label: 'Headset' },
  { value: 'chair', label: 'Chair' },
  { value: 'desk', label: 'Desk' },
  { value: 'lighting', label: 'Lighting' },
  { value: 'audio', label: 'Audio' },
  { value: 'pc', label: 'PC' },
  { value: 'other', label: 'Other' },
]

export function categoryLabel(category: GearCategory): string {
  return GEAR_CATEGORIES.find((c) => c.value === category)?.label ?? 'Other'
}

/** Where a piece of gear is shopped: the counted redirect, never the URL itself. */
export function gearHref(id: number): string {
  return `/go/gear/${id}`
}

function isPrivateIpv4(host: string): boolean {
  const parts = host.split('.').map(Number)
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) return false
  const [a = 0, b = 0] = parts
  return (
    a === 0 || a === 10 || a === 127 || a >= 224 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 198 && (b === 18 || b === 19))
  )
}

/**
 * The server's link rule as far as a browser can tell: http or https with a host, no
 * whitespace, and no loopback name or private, loopback or link-local address (the server
 * checks again, with every IPv6 form).
 */
export function isAllowedGearUrl(value: string): boolean {
  if (value.length > GEAR_URL_MAX || /\s/.test(value) || [...value].some((c) => c.charCodeAt(0) < 0x20 || (c.charCodeAt(0) >= 0x7f && c.charCodeAt(0) <= 0x9f))) return false
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return false
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false
  const host = url.hostname.toLowerCase().replace(/\.$/, '')
  if (!host) return false
  if (host === 'localhost' || host.endsWith('.localhost')) return false
  if (isPrivateIpv4(host)) return false
  if (host.startsWith('[')) {
    const v6 = host.slice(1, -1)
    if (v6 === '::1' || v6 === '::' || /^(fe[89ab]|fc|fd|ff)/.test(v6) || v6.startsWith('::ffff:')) return false
  }
  return true
}

/** A row of the editor: `kept` is the owner's choice; only kept rows are published. */
export interface GearRow {
  key: string
  name: string
  category: GearCategory
  url: string
  kept: boolean
  /** Offered from the analysis (unticked until the owner keeps it). */
  suggested: boolean
  /** The stored link failed the daily check twice in a row; forgotten once the link is edited. */
  linkDead?: boolean
}

let rowCounter = 0
export function rowKey(): string {
  rowCounter += 1
  return `gear-${rowCounter}`
}

export function newRow(category: GearCategory = 'other'): GearRow {
  return { key: rowKey(), name: '', category, url: '', kept: true, suggested: false }
}

const categories = GEAR_CATEGORIES.map((c) => c.value) as [GearCategory, ...GearCategory[]]

/** One kept row, as the server checks it. */
export const gearItemSchema = z.object({
  name: z.string().trim().min(1, GEAR_NAME_LENGTH).refine((name) => [...name].length <= GEAR_NAME_MAX, GEAR_NAME_LENGTH),
  category: z.enum(categories),
  url: z.string().trim().refine((url) => url === '' || isAllowedGearUrl(url), GEAR_URL),
})

/** The kept rows, as the server checks them. */
export const gearListSchema = z.array(gearItemSchema).max(GEAR_MAX, GEAR_TOO_MANY)

export type GearRequestItem = Schemas['GearItemRequest']

/**
 * The kept rows as the request sends them, or the first rule they break (with the row's
 * index, -1 for the list).
 */
export function checkGear(rows: GearRow[]): { items: GearRequestItem[] } | { error: string; index: number } {
  const kept = rows.filter((r) => r.kept)
  if (kept.length > GEAR_MAX) return { error: GEAR_TOO_MANY, index: -1 }
  const items: GearRequestItem[] = []
  for (const row of kept) {
    const parsed = gearItemSchema.safeParse(row)
    if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? GEAR_NAME_LENGTH, index: rows.indexOf(row) }
    const { name, category, url } = parsed.data
    items.push(url ? { name, category, url } : { name, category })
  }
  return { items }
}

/** The owner's stored list as editor rows. */
export function rowsOf(items: OwnGearItem[]): GearRow[] {
  return items.map((item) => ({ key: rowKey(), name: item.name, category: item.category, url: item.url ?? '', kept: true, suggested: false, linkDead: item.linkDead }))
}

const NUMBERS: Record<string, number> = { one: 1, single: 1, two: 2, dual: 2, double: 2, twin: 2, three: 3, triple: 3, four: 4, quad: 4 }

/** How many monitors a text names ("two monitors", "triple-monitor", "3 screens"), if any. */
export function monitorCount(text: string): number | null {
  const match = /\b(\d|one|single|two|dual|double|twin|three|triple|four|quad)[\s-]+(?:\w+[\s-]+)?(monitors?|screens?|displays?)\b/i.exec(text)
  if (!match?.[1]) return null
  const word = match[1].toLowerCase()
  const count = NUMBERS[word] ?? Number(word)
  return Number.isFinite(count) && count > 0 ? Math.min(count, 4) : null
}

const MENTIONS: { category: GearCategory; name: string; pattern: RegExp }[] = [
  { category: 'keyboard', name: 'Keyboard', pattern: /\bkeyboards?\b/i },
  { category: 'mouse', name: 'Mouse', pattern: /\bmouse\b|\bmice\b/i },
  { category: 'chair', name: 'Chair', pattern: /\bchairs?\b/i },
  { category: 'lighting', name: 'Lighting', pattern: /\brgb\b|\bled\b|\blight(s|ing)?\b|\blamps?\b/i },
  { category: 'pc', name: 'PC', pattern: /\bpc\b|\btower\b|\bdesktop computer\b|\bgaming rig\b/i },
]

/**
 * The gear the analysis saw or its description named, as rows for the owner to name, keep or
 * drop (unticked: nothing is published the owner did not keep): the monitors with their
 * count, then keyboard, mouse, chair, lighting and PC. What it reads: the description (a text
 * analysis), the summary, the categories' comments (a category the photo could not judge
 * names nothing) and the cable inventory (a keyboard's or a mouse's cable is a keyboard or a
 * mouse).
 */
export function suggestGear(analysis: Pick<SavedAnalysis, 'inputType' | 'inputData' | 'result'>): GearRow[] {
  // A list item may come without its full result (older caches): then the description alone.
  const result = analysis.result as SavedAnalysis['result'] | undefined
  const seen = (result?.categoryRatings ?? []).filter((r) => r.score != null)
  const texts = [analysis.inputType === 'text' ? analysis.inputData : '', result?.summary ?? '', ...seen.map((r) => r.comment)]
  const text = texts.join('\n')
  const cables = (result?.cableInventory.cables ?? []).map((c) => c.cableType)
  const row = (name: string, category: GearCategory): GearRow => ({ key: rowKey(), name, category, url: '', kept: false, suggested: true })

  const rows: GearRow[] = []
  const monitorRated = seen.some((r) => r.category === 'Monitor Setup')
  const monitors = monitorCount(text) ?? (monitorRated || cables.includes('monitor') || /\bmonitors?\b|\bscreens?\b/i.test(text) ? 1 : 0)
  for (let i = 1; i <= monitors; i += 1) rows.push(row(monitors > 1 ? `Monitor ${i}` : 'Monitor', 'monitor'))
  for (const mention of MENTIONS) {
    const cable = (mention.category === 'keyboard' || mention.category === 'mouse') && cables.includes(mention.category)
    const rated = mention.category === 'chair' && seen.some((r) => r.category === 'Chair & Comfort')
    if (cable || rated || mention.pattern.test(text)) rows.push(row(mention.name, mention.category))
  }
  return rows
}
