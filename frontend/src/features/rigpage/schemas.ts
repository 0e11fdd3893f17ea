import { z } from 'zod'
import type { Schemas } from '@/api/client'
import {
  BIO_MAX, BUTTON_STYLES, FONT_STYLES, LABEL_MAX, MAX_LINKS, MAX_SECTIONS, SECTION_MAX, TAGLINE_MAX, THEMES,
  toRequest, withScheme, type Draft, type FieldErrors,
} from './draft'
import { isHttpUrl } from '@/lib/url'

/**
 * The client's check of what a save sends (spec §5, in its words); the server checks the
 * same and more (free slug, own setup and images) and has the last word.
 */
export const INVALID_URL = 'Please enter a valid URL.'

const url = z.string().refine(isHttpUrl, INVALID_URL)
const optionalUrl = z.string().refine(isHttpUrl, INVALID_URL).nullable().optional()
/** An uploaded image is one of our `/media/…` paths; anything else must be a followable URL. */
const image = z
  .string()
  .refine((value) => value.startsWith('/media/') || isHttpUrl(value), INVALID_URL)
  .nullable()
  .optional()
const hex = z.string().regex(/^#[0-9A-Fa-f]{6}$/, 'Please enter a colour as a six-digit hex code, e.g. #8B5CF6.')

export const slugSchema = z
  .string()
  .min(3, 'URL must be at least 3 characters.')
  .max(30, 'URL must be 30 characters or less.')
  .regex(/^[A-Za-z0-9_-]+$/, 'URL can only contain letters, numbers, hyphens, and underscores.')

export const linkSchema = z.object({
  id: z.number().int().nullable().optional(),
  label: z.string().trim().min(1, 'Label cannot be empty.').max(LABEL_MAX, 'Label must be 100 characters or less.'),
  url: z.string().trim().pipe(url),
  section: z.string().max(SECTION_MAX, 'Section names must be 50 characters or less.').nullable().optional(),
  imageUrl: image,
  displayOrder: z.number().int().optional(),
  enabled: z.boolean().optional(),
}) satisfies z.ZodType<Schemas['LinkInput']>

/** A new link's two fields, before it joins the list. */
export const newLinkSchema = linkSchema.pick({ label: true, url: true })

/** The "Add a link" form: an address typed without its `https://` gets it, as on leaving the field. */
export const newLinkFormSchema = z.object({ label: z.string(), url: z.string().transform(withScheme) }).pipe(newLinkSchema)
export type NewLink = z.input<typeof newLinkFormSchema>

const social = {
  twitch: optionalUrl,
  tiktok: optionalUrl,
  youtube: optionalUrl,
  discord: optionalUrl,
  twitter: optionalUrl,
  instagram: optionalUrl,
  email: z.email('Please enter a valid email address.').nullable().optional(),
  vimeo: optionalUrl,
}

export const rigpageConfigSchema = z.object({
  rigpageEnabled: z.boolean().optional(),
  showRigpageOnCommunity: z.boolean().optional(),
  rigpageSlug: slugSchema.nullable().optional(),
  rigpageSetupId: z.number().int().positive('Please choose one of your setups.').nullable().optional(),
  rigpageAvatar: image,
  rigpageTagline: z.string().max(TAGLINE_MAX, 'Tagline must be 100 characters or less.').nullable().optional(),
  rigpageBio: z.string().max(BIO_MAX, 'Bio must be 150 characters or less.').nullable().optional(),
  rigpageSocialLinks: z.object(social).optional(),
  rigpageTheme: z.enum(THEMES as [Schemas['Theme'], ...Schemas['Theme'][]]).optional(),
  rigpageHighlightColor: hex.optional(),
  fontStyle: z.enum(FONT_STYLES.map((f) => f.value) as [Schemas['FontStyle'], ...Schemas['FontStyle'][]]).optional(),
  buttonStyle: z.enum(BUTTON_STYLES.map((b) => b.value) as [Schemas['ButtonStyle'], ...Schemas['ButtonStyle'][]]).optional(),
  buttonCornerRadius: z.number().int().min(0).max(100, 'Corner radius must be between 0 and 100.').optional(),
  backgroundImage: image,
  backgroundOverlay: hex.optional(),
  backgroundBlur: z.number().int().min(0).max(50, 'Blur must be between 0 and 50.').optional(),
  backgroundOpacity: z.number().int().min(0).max(100, 'Opacity must be between 0 and 100.').optional(),
  showSetupInBackground: z.boolean().optional(),
  showGear: z.boolean().optional(),
  sections: z.array(z.string().max(SECTION_MAX, 'Section names must be 50 characters or less.')).max(MAX_SECTIONS, 'A page can have at most 20 sections.').optional(),
  links: z.array(linkSchema).max(MAX_LINKS, 'A page can have at most 105 links.').optional(),
}) satisfies z.ZodType<Schemas['RigpageConfigRequest']>

/**
 * The editor's form: the draft checked as what a save of it sends, so that its errors'
 * paths are the draft's own fields (`rigpageSlug`, `links.1.url`).
 */
export const draftSchema = z.custom<Draft>().transform(toRequest).pipe(rigpageConfigSchema)

/** Zod's issues as errors by field path (`links.3.url`), the first per field. */
export function fieldErrorsOfZod(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {}
  for (const issue of error.issues) {
    const path = issue.path.map(String).join('.')
    if (!(path in errors)) errors[path] = issue.message
  }
  return errors
}

/** The request's problems by field, or none. */
export function checkRequest(request: Schemas['RigpageConfigRequest']): FieldErrors {
  const result = rigpageConfigSchema.safeParse(request)
  return result.success ? {} : fieldErrorsOfZod(result.error)
}
