import { ApiError, type Schemas } from '@/api/client'
import { LinkInput, RigpageConfigRequest } from '@/api/limits'

/**
 * The editor's draft of a RigPage and the pure rules around it (spec §4, §5, §9): the
 * defaults and fall-backs on load, what a save sends (texts trimmed, empty as none), the
 * link-batch arithmetic of the add-link gate, the corner-radius labels and where a
 * server's error belongs. The server is the authority on all of it; these only mirror it.
 */

export type Theme = Schemas['Theme']
export type FontStyle = Schemas['FontStyle']
export type ButtonStyle = Schemas['ButtonStyle']
export type Editor = Schemas['RigpageEditorResponse']
export type ConfigRequest = Schemas['RigpageConfigRequest']
export type ThemePreset = Schemas['ThemeDto']

export const THEMES: readonly Theme[] = [
  'dark_neon', 'minimal_white', 'vaporwave', 'rgb_glow', 'creator_brown', 'matrix', 'sunset',
  'ocean', 'midnight', 'forest', 'neon_pink', 'arctic', 'retro_arcade',
]
export const FONT_STYLES: readonly { value: FontStyle; label: string }[] = [
  { value: 'sans-serif', label: 'Sans-serif' },
  { value: 'serif', label: 'Serif' },
  { value: 'mono', label: 'Monospace' },
  { value: 'gaming', label: 'Gaming' },
]
/** The editor's four first; the other four fix the corner shape whatever the radius says. */
export const BUTTON_STYLES: readonly { value: ButtonStyle; label: string }[] = [
  { value: 'solid', label: 'Solid' },
  { value: 'outline', label: 'Outline' },
  { value: 'soft', label: 'Soft' },
  { value: 'glass', label: 'Glass' },
  { value: 'rounded', label: 'Rounded' },
  { value: 'pill', label: 'Pill' },
  { value: 'sharp', label: 'Sharp' },
  { value: 'gradient', label: 'Gradient' },
]

export const SOCIAL_PLATFORMS = ['twitch', 'tiktok', 'youtube', 'discord', 'twitter', 'instagram', 'email', 'vimeo'] as const
export type SocialPlatform = (typeof SOCIAL_PLATFORMS)[number]
export const SOCIAL_FIELDS: Record<SocialPlatform, { label: string; placeholder: string }> = {
  twitch: { label: 'Twitch', placeholder: 'https://twitch.tv/yourname' },
  tiktok: { label: 'TikTok', placeholder: 'https://tiktok.com/@yourname' },
  youtube: { label: 'YouTube', placeholder: 'https://youtube.com/@yourname' },
  discord: { label: 'Discord', placeholder: 'https://discord.gg/invite' },
  twitter: { label: 'Twitter / X', placeholder: 'https://x.com/yourname' },
  instagram: { label: 'Instagram', placeholder: 'https://instagram.com/yourname' },
  email: { label: 'Email', placeholder: 'you@example.com' },
  vimeo: { label: 'Vimeo', placeholder: 'https://vimeo.com/yourname' },
}

/** Spec §9 and the server's limits. */
export const TAGLINE_MAX = RigpageConfigRequest.rigpageTagline.maxLength
export const BIO_MAX = RigpageConfigRequest.rigpageBio.maxLength
export const LABEL_MAX = LinkInput.label.maxLength
export const SECTION_MAX = LinkInput.section.maxLength
export const MAX_SECTIONS = RigpageConfigRequest.sections.maxItems
export const MAX_LINKS = RigpageConfigRequest.links.maxItems
export const FREE_LINKS = 5
export const LINKS_PER_BATCH = 10
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const
export const ZOOM_MIN = 50
export const ZOOM_MAX = 150
export const ZOOM_STEP = 25
export const PREVIEW_DEBOUNCE_MS = 300

export const DEFAULTS = {
  theme: 'dark_neon' as Theme,
  highlightColor: '#8B5CF6',
  overlay: '#000000',
  fontStyle: 'sans-serif' as FontStyle,
  buttonStyle: 'solid' as ButtonStyle,
  radius: 50,
  blur: 20,
  opacity: 50,
}

export interface DraftLink {
  /** A key for React and drag and drop; never sent. */
  key: string
  id: number | null
  label: string
  url: string
  section: string | null
  imageUrl: string | null
  enabled: boolean
}

export interface DraftSection {
  key: string
  name: string
}

/** The config as the form edits it: texts as strings ('' = none), links with keys. */
export interface Draft {
  rigpageEnabled: boolean
  showRigpageOnCommunity: boolean
  rigpageSlug: string
  rigpageSetupId: number | null
  rigpageAvatar: string | null
  rigpageTagline: string
  rigpageBio: string
  rigpageSocialLinks: Record<SocialPlatform, string>
  rigpageTheme: Theme
  rigpageHighlightColor: string
  fontStyle: FontStyle
  buttonStyle: ButtonStyle
  buttonCornerRadius: number
  backgroundImage: string | null
  backgroundOverlay: string
  backgroundBlur: number
  backgroundOpacity: number
  showSetupInBackground: boolean
  /** The "My gear" block: the showcased setup's gear from its community post. */
  showGear: boolean
  sections: DraftSection[]
  links: DraftLink[]
}

let nextKey = 0
/** A key unique in this page's lifetime. */
export function newKey(prefix = 'k'): string {
  nextKey += 1
  return `${prefix}${nextKey}`
}

/** Social links as an object; a JSON string is parsed, anything unreadable is none (spec §4). */
export function parseSocialLinks(value: unknown): Record<SocialPlatform, string> {
  let object: unknown = value
  if (typeof value === 'string') {
    try {
      object = JSON.parse(value)
    } catch {
      object = null
    }
  }
  const source = typeof object === 'object' && object !== null ? (object as Record<string, unknown>) : {}
  const links = {} as Record<SocialPlatform, string>
  for (const platform of SOCIAL_PLATFORMS) {
    const entry = source[platform]
    links[platform] = typeof entry === 'string' ? entry : ''
  }
  return links
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T {
  return typeof value === 'string' && (allowed as readonly string[]).includes(value) ? (value as T) : fallback
}

function intOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.round(value) : fallback
}

const HEX = /^#[0-9A-Fa-f]{6}$/

/**
 * The draft of a loaded config. The server already fills a page never saved with the
 * defaults; these fall-backs only guard against missing or unknown values (spec §4, §5).
 */
export function draftFromEditor(editor: Editor): Draft {
  const colour = (value: unknown, fallback: string) => (typeof value === 'string' && HEX.test(value) ? value : fallback)
  const sectionNames: string[] = Array.isArray(editor.sections) ? editor.sections.filter((s): s is string => typeof s === 'string') : []
  const setupId = typeof editor.rigpageSetupId === 'number' && Number.isInteger(editor.rigpageSetupId) ? editor.rigpageSetupId : null
  return {
    rigpageEnabled: Boolean(editor.rigpageEnabled),
    showRigpageOnCommunity: Boolean(editor.showRigpageOnCommunity),
    // The server already chose the username as a page never saved's slug, when it was free.
    rigpageSlug: editor.rigpageSlug ?? '',
    rigpageSetupId: setupId,
    rigpageAvatar: editor.rigpageAvatar ?? null,
    rigpageTagline: editor.rigpageTagline ?? '',
    rigpageBio: editor.rigpageBio ?? '',
    rigpageSocialLinks: parseSocialLinks(editor.rigpageSocialLinks),
    rigpageTheme: oneOf(editor.rigpageTheme, THEMES, DEFAULTS.theme),
    rigpageHighlightColor: colour(editor.rigpageHighlightColor, DEFAULTS.highlightColor),
    fontStyle: oneOf(editor.fontStyle, FONT_STYLES.map((f) => f.value), DEFAULTS.fontStyle),
    buttonStyle: oneOf(editor.buttonStyle, BUTTON_STYLES.map((b) => b.value), DEFAULTS.buttonStyle),
    buttonCornerRadius: intOr(editor.buttonCornerRadius, DEFAULTS.radius),
    backgroundImage: editor.backgroundImage ?? null,
    backgroundOverlay: colour(editor.backgroundOverlay, DEFAULTS.overlay),
    backgroundBlur: intOr(editor.backgroundBlur, DEFAULTS.blur),
    backgroundOpacity: intOr(editor.backgroundOpacity, DEFAULTS.opacity),
    showSetupInBackground: Boolean(editor.showSetupInBackground),
    showGear: Boolean(editor.showGear),
    sections: sectionNames.map((name) => ({ key: newKey('s'), name })),
    links: [...(editor.links ?? [])]
      .sort((a, b) => a.displayOrder - b.displayOrder)
      .map((link) => ({
        key: newKey('l'),
        id: link.id ?? null,
        label: link.label,
        url: link.url,
        section: link.section ?? null,
        imageUrl: link.imageUrl ?? null,
        enabled: link.enabled ?? true,
      })),
  }
}

/** A text trimmed; empty as none (spec §5 "Editor behaviours"). */
export function textOrNull(value: string | null | undefined): string | null {
  const trimmed = (value ?? '').trim()
  return trimmed === '' ? null : trimmed
}

/** The defined, non-empty section names, trimmed, first occurrence kept. */
export function sectionNames(sections: readonly DraftSection[]): string[] {
  const names: string[] = []
  for (const section of sections) {
    const name = section.name.trim()
    if (name && !names.includes(name)) names.push(name)
  }
  return names
}

/** What a save (or preview) of the draft sends: the whole config, normalised. */
export function toRequest(draft: Draft): ConfigRequest {
  const names = sectionNames(draft.sections)
  const setupId = draft.rigpageSetupId
  const socials = {} as Record<SocialPlatform, string | null>
  for (const platform of SOCIAL_PLATFORMS) {
    const value = draft.rigpageSocialLinks[platform]
    socials[platform] = textOrNull(platform === 'email' ? value : withScheme(value))
  }
  return {
    rigpageEnabled: draft.rigpageEnabled,
    showRigpageOnCommunity: draft.showRigpageOnCommunity,
    rigpageSlug: textOrNull(draft.rigpageSlug),
    rigpageSetupId: typeof setupId === 'number' && Number.isInteger(setupId) && setupId > 0 ? setupId : null,
    rigpageAvatar: textOrNull(draft.rigpageAvatar),
    rigpageTagline: textOrNull(draft.rigpageTagline),
    rigpageBio: textOrNull(draft.rigpageBio),
    rigpageSocialLinks: socials,
    rigpageTheme: draft.rigpageTheme,
    rigpageHighlightColor: draft.rigpageHighlightColor,
    fontStyle: draft.fontStyle,
    buttonStyle: draft.buttonStyle,
    buttonCornerRadius: draft.buttonCornerRadius,
    backgroundImage: textOrNull(draft.backgroundImage),
    backgroundOverlay: draft.backgroundOverlay,
    backgroundBlur: draft.backgroundBlur,
    backgroundOpacity: draft.backgroundOpacity,
    showSetupInBackground: draft.showSetupInBackground,
    showGear: draft.showGear,
    sections: names,
    links: draft.links.map((link, index) => {
      const section = textOrNull(link.section)
      return {
        id: link.id,
        label: link.label.trim(),
        url: withScheme(link.url),
        section: section && names.includes(section) ? section : null,
        imageUrl: textOrNull(link.imageUrl),
        displayOrder: index,
        enabled: link.enabled,
      }
    }),
  }
}

/** Batches of 10 links needed beyond the 5 free ones: 5 -> 0, 6..15 -> 1, 16..25 -> 2. */
export function linkBatches(count: number, free = FREE_LINKS, perBatch = LINKS_PER_BATCH): number {
  return count <= free ? 0 : Math.ceil((count - free) / perBatch)
}

/**
 * Whether adding one link to `count` costs a credit: at 5, 15, 25… links, unless that
 * batch was paid before (`paidLinkBatches` is the account's high-water mark).
 */
export function addLinkCosts(count: number, paidLinkBatches: number, free = FREE_LINKS, perBatch = LINKS_PER_BATCH): boolean {
  return linkBatches(count + 1, free, perBatch) > paidLinkBatches
}

/** What saving a page with `linkCount` links, public or not, would cost, as the server counts it. */
export function saveCost(
  { enabled, linkCount }: { enabled: boolean; linkCount: number },
  editor: Pick<Editor, 'everPublished' | 'paidLinkBatches' | 'publishCost' | 'freeLinks' | 'linksPerBatch'>,
): number {
  const publish = enabled && !editor.everPublished ? editor.publishCost : 0
  const batches = Math.max(0, linkBatches(linkCount, editor.freeLinks, editor.linksPerBatch) - editor.paidLinkBatches)
  return publish + batches
}

/** The corner radius's words (spec §5). */
export function radiusLabel(radius: number): string {
  if (radius <= 20) return 'Sharp corners'
  if (radius <= 40) return 'Small rounding'
  if (radius <= 60) return 'Medium rounding'
  if (radius <= 80) return 'Large rounding'
  return 'Pill shape'
}

/** `1 credit`, `2 credits`. */
export function credits(count: number): string {
  return `${count} ${count === 1 ? 'credit' : 'credits'}`
}

/** The next zoom step, kept within 50–150 %. */
export function zoomBy(zoom: number, direction: 1 | -1): number {
  return Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, zoom + direction * ZOOM_STEP))
}

/** The draft with a theme's preset applied (spec §3 "Theme presets"). */
export function applyTheme(draft: Draft, theme: ThemePreset): Draft {
  return {
    ...draft,
    rigpageTheme: theme.id,
    rigpageHighlightColor: theme.highlightColor,
    buttonStyle: theme.buttonStyle,
    buttonCornerRadius: theme.buttonCornerRadius,
    fontStyle: theme.fontStyle,
    backgroundOverlay: theme.backgroundOverlay,
  }
}

/** The draft with a section renamed: the links in it follow its new name. */
export function renameSection(draft: Draft, key: string, name: string): Draft {
  const old = draft.sections.find((s) => s.key === key)?.name.trim()
  const renamed = name.trim()
  return {
    ...draft,
    sections: draft.sections.map((s) => (s.key === key ? { ...s, name } : s)),
    links: old ? draft.links.map((l) => (l.section === old ? { ...l, section: renamed || null } : l)) : draft.links,
  }
}

/** The draft without a section: its links have none, unless another section has the same name. */
export function removeSection(draft: Draft, key: string): Draft {
  const name = draft.sections.find((s) => s.key === key)?.name.trim()
  const rest = draft.sections.filter((s) => s.key !== key)
  const stillNamed = rest.some((s) => s.name.trim() === name)
  return {
    ...draft,
    sections: rest,
    links: name && !stillNamed ? draft.links.map((l) => (l.section === name ? { ...l, section: null } : l)) : draft.links,
  }
}

/**
 * A web address as people type it (`instagram.com/pixel`) with the `https://` it needs; an
 * address with a scheme, or text that is not an address, as it is (the check says why).
 */
export function withScheme(value: string): string {
  const trimmed = value.trim()
  if (trimmed === '' || /^[a-z][a-z0-9+.-]*:/i.test(trimmed)) return trimmed
  return /^[^\s/@:]+\.[^\s/@:]{2,}(?:[/?#]\S*)?$/.test(trimmed) ? `https://${trimmed}` : trimmed
}

/** Whether saving `slug` renames a page that has been public (its old address then redirects for 90 days). */
export function renamesLivePage(editor: { saved: boolean; everPublished: boolean; rigpageSlug?: string | null }, slug: string): boolean {
  const before = editor.rigpageSlug
  return editor.saved && editor.everPublished && before != null && slug.trim() !== '' && slug.trim().toLowerCase() !== before.toLowerCase()
}

/** What a field path names for a person (`links.2.url` -> "Link 3 URL"), for messages. */
export function fieldName(path: string): string {
  const link = /^links\.(\d+)\.(\w+)$/.exec(path)
  if (link) return `Link ${Number(link[1]) + 1} ${LINK_FIELD_NAMES[link[2] as string] ?? link[2]}`
  const social = /^rigpageSocialLinks\.(\w+)$/.exec(path)
  if (social) return SOCIAL_FIELDS[social[1] as SocialPlatform]?.label ?? social[1] ?? path
  const section = /^sections\.(\d+)$/.exec(path)
  if (section) return `Section ${Number(section[1]) + 1}`
  return FIELD_NAMES[path] ?? path
}

const LINK_FIELD_NAMES: Record<string, string> = { url: 'URL', label: 'label', imageUrl: 'image', section: 'section' }
const FIELD_NAMES: Record<string, string> = {
  rigpageSlug: 'Page URL',
  rigpageSetupId: 'Setup',
  rigpageAvatar: 'Avatar',
  rigpageTagline: 'Tagline',
  rigpageBio: 'Bio',
  rigpageHighlightColor: 'Highlight color',
  backgroundImage: 'Background image',
  buttonCornerRadius: 'Corner radius',
}


/** The client's check of an image before it is read and uploaded (spec §5). */
export function imageProblem(file: { type: string; size: number }): string | null {
  if (!(IMAGE_TYPES as readonly string[]).includes(file.type)) return 'Please upload a valid image (PNG, JPG, or WebP)'
  if (file.size > IMAGE_MAX_BYTES) return 'Image must be less than 5MB'
  return null
}

/** The moves of a drag: `items` with the one at `from` moved to `to`. */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  const next = [...items]
  if (from < 0 || from >= next.length || to < 0 || to >= next.length) return next
  const [moved] = next.splice(from, 1)
  next.splice(to, 0, moved as T)
  return next
}

/** Errors by field path (`rigpageSlug`, `links.3.url`, `rigpageSocialLinks.twitch`). */
export type FieldErrors = Record<string, string>

/**
 * Where a failed save's errors belong: every issue on its field, and a slug problem on
 * the slug field: an issue there, a taken slug (409 `conflict`), or a message about the
 * slug (spec §8).
 */
export function fieldErrorsOf(error: unknown): FieldErrors {
  const errors: FieldErrors = {}
  if (!(error instanceof ApiError)) return errors
  for (const issue of error.issues) {
    if (!(issue.path in errors)) errors[issue.path] = issue.message
  }
  if (!errors.rigpageSlug && (error.code === 'conflict' || /\bslug\b/i.test(error.message))) {
    errors.rigpageSlug = error.message
  }
  return errors
}
