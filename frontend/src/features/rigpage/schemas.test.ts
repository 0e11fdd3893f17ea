import { toRequest, draftFromEditor } from './draft'
import { checkRequest, draftSchema, newLinkFormSchema, newLinkSchema, slugSchema } from './schemas'
import { sampleEditor, sampleLinks } from './testFixtures'

const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues.map((i) => i.message) ?? []

describe('RigPage validation', () => {
  it('uses the spec\'s slug messages', () => {
    expect(messages(slugSchema.safeParse('ab'))).toEqual(['URL must be at least 3 characters.'])
    expect(messages(slugSchema.safeParse('a'.repeat(31)))).toEqual(['URL must be 30 characters or less.'])
    expect(messages(slugSchema.safeParse('pete page!'))).toEqual(['URL can only contain letters, numbers, hyphens, and underscores.'])
    expect(slugSchema.safeParse('Pixel_Pete-2').success).toBe(true)
  })

  it('wants a label and an http(s) URL for a link', () => {
    expect(messages(newLinkSchema.safeParse({ label: '  ', url: 'https://example.com' }))).toEqual(['Label cannot be empty.'])
    expect(messages(newLinkSchema.safeParse({ label: 'Shop', url: 'javascript:alert(1)' }))).toEqual(['Please enter a valid URL.'])
    expect(messages(newLinkSchema.safeParse({ label: 'Shop', url: 'www.example.com' }))).toEqual(['Please enter a valid URL.'])
    expect(newLinkSchema.safeParse({ label: ' Shop ', url: ' https://example.com ' }).data).toEqual({ label: 'Shop', url: 'https://example.com' })
  })

  it('reports problems by the server\'s field paths', () => {
    const draft = draftFromEditor(sampleEditor({ links: sampleLinks(4) }))
    draft.links[3]!.url = 'ftp://example.com'
    draft.links[1]!.label = ''
    draft.rigpageTagline = 'x'.repeat(101)
    draft.rigpageBio = 'y'.repeat(151)
    draft.rigpageSocialLinks.twitch = 'twitch'
    draft.rigpageSocialLinks.email = 'not-an-email'
    draft.rigpageSlug = 'a b'
    expect(checkRequest(toRequest(draft))).toEqual({
      'links.1.label': 'Label cannot be empty.',
      'links.3.url': 'Please enter a valid URL.',
      rigpageTagline: 'Tagline must be 100 characters or less.',
      rigpageBio: 'Bio must be 150 characters or less.',
      'rigpageSocialLinks.twitch': 'Please enter a valid URL.',
      'rigpageSocialLinks.email': 'Please enter a valid email address.',
      rigpageSlug: 'URL can only contain letters, numbers, hyphens, and underscores.',
    })
  })

  it('passes a page as the server sends it', () => {
    expect(checkRequest(toRequest(draftFromEditor(sampleEditor({ links: sampleLinks(6), rigpageAvatar: '/media/rigpage/a.webp' }))))).toEqual({})
  })

  it('adds https:// to a new link typed without it', () => {
    expect(newLinkFormSchema.safeParse({ label: ' Shop ', url: 'shop.example.com' }).data).toEqual({ label: 'Shop', url: 'https://shop.example.com' })
    expect(messages(newLinkFormSchema.safeParse({ label: '', url: 'not an address' }))).toEqual(['Label cannot be empty.', 'Please enter a valid URL.'])
  })

  it('checks the editor\'s draft as what a save sends, by the draft\'s own paths', () => {
    const draft = draftFromEditor(sampleEditor({ links: sampleLinks(2) }))
    draft.links[1]!.url = 'instagram.com/pixel'
    expect(draftSchema.safeParse(draft).success).toBe(true)
    draft.links[1]!.url = 'not a url'
    draft.rigpageSlug = 'ab'
    expect(draftSchema.safeParse(draft).error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['rigpageSlug', 'URL must be at least 3 characters.'],
      ['links.1.url', 'Please enter a valid URL.'],
    ])
  })
})
