import { ApiError } from '@/api/client'
import {
  fieldName, withScheme, addLinkCosts, applyTheme, credits, draftFromEditor, fieldErrorsOf, imageProblem, linkBatches, moveItem,
  parseSocialLinks, radiusLabel, removeSection, renameSection, renamesLivePage, saveCost, sectionNames, toRequest, zoomBy, type Editor,
} from './draft'
import { sampleEditor, sampleLinks, sampleThemes } from './testFixtures'

describe('link batches', () => {
  it.each([
    [0, 0], [5, 0], [6, 1], [15, 1], [16, 2], [25, 2], [26, 3], [105, 10],
  ])('%i links need %i paid batches', (count, batches) => {
    expect(linkBatches(count)).toBe(batches)
  })

  it('gates the link that starts a batch not yet paid: at 5, 15, 25 links', () => {
    expect(addLinkCosts(4, 0)).toBe(false)
    expect(addLinkCosts(5, 0)).toBe(true)
    expect(addLinkCosts(5, 1)).toBe(false)
    expect(addLinkCosts(6, 1)).toBe(false)
    expect(addLinkCosts(14, 1)).toBe(false)
    expect(addLinkCosts(15, 1)).toBe(true)
    expect(addLinkCosts(15, 2)).toBe(false)
    expect(addLinkCosts(25, 2)).toBe(true)
    // A batch once paid stays paid: removing links and adding them back is free.
    expect(addLinkCosts(5, 3)).toBe(false)
  })

  it('counts what a save costs as the server does', () => {
    const editor = sampleEditor()
    expect(saveCost({ enabled: false, linkCount: 5 }, editor)).toBe(0)
    expect(saveCost({ enabled: true, linkCount: 5 }, editor)).toBe(1)
    expect(saveCost({ enabled: true, linkCount: 6 }, editor)).toBe(2)
    expect(saveCost({ enabled: true, linkCount: 16 }, { ...editor, everPublished: true, paidLinkBatches: 1 })).toBe(1)
    expect(saveCost({ enabled: true, linkCount: 3 }, { ...editor, everPublished: true })).toBe(0)
  })
})

describe('radius labels', () => {
  it.each([
    [0, 'Sharp corners'], [20, 'Sharp corners'], [21, 'Small rounding'], [40, 'Small rounding'], [41, 'Medium rounding'],
    [60, 'Medium rounding'], [61, 'Large rounding'], [80, 'Large rounding'], [81, 'Pill shape'], [100, 'Pill shape'],
  ])('%i is "%s"', (radius, label) => {
    expect(radiusLabel(radius)).toBe(label)
  })
})

describe('loading a config', () => {
  it('parses social links sent as a JSON string and treats unreadable ones as none', () => {
    expect(parseSocialLinks('{"twitch":"https://twitch.tv/pete","bogus":"x"}')).toMatchObject({ twitch: 'https://twitch.tv/pete', youtube: '' })
    expect(parseSocialLinks('{not json')).toEqual({ twitch: '', tiktok: '', youtube: '', discord: '', twitter: '', instagram: '', email: '', vimeo: '' })
    expect(parseSocialLinks(null).email).toBe('')
  })

  it('falls back to sans-serif and solid for unknown styles, and orders links', () => {
    const editor = { ...sampleEditor(), fontStyle: 'comic', buttonStyle: 'wobbly', links: [...sampleLinks(3)].reverse() } as unknown as Editor
    const draft = draftFromEditor(editor)
    expect(draft.fontStyle).toBe('sans-serif')
    expect(draft.buttonStyle).toBe('solid')
    expect(draft.links.map((l) => l.label)).toEqual(['Link 1', 'Link 2', 'Link 3'])
    expect(new Set(draft.links.map((l) => l.key)).size).toBe(3)
  })

  it('keeps the gradient and the other server-only button styles', () => {
    expect(draftFromEditor(sampleEditor({ buttonStyle: 'gradient' })).buttonStyle).toBe('gradient')
  })
})

describe('what a save sends', () => {
  it('trims texts, sends empty ones as null and numbers the links in order', () => {
    const draft = draftFromEditor(sampleEditor({ links: sampleLinks(2), sections: ['Gear'] }))
    draft.rigpageSlug = '  pete  '
    draft.rigpageTagline = '   '
    draft.rigpageBio = ' Hi there '
    draft.rigpageSocialLinks.twitch = ' https://twitch.tv/pete '
    draft.sections.push({ key: 'x', name: '  ' }, { key: 'y', name: 'Gear' })
    draft.links = [draft.links[1]!, { ...draft.links[0]!, section: 'Gear', label: ' First ' }]
    const body = toRequest(draft)
    expect(body.rigpageSlug).toBe('pete')
    expect(body.rigpageTagline).toBeNull()
    expect(body.rigpageBio).toBe('Hi there')
    expect(body.rigpageSocialLinks).toMatchObject({ twitch: 'https://twitch.tv/pete', youtube: null })
    expect(body.sections).toEqual(['Gear'])
    expect(body.links).toEqual([
      { id: 101, label: 'Link 2', url: 'https://example.com/2', section: null, imageUrl: null, displayOrder: 0, enabled: true },
      { id: 100, label: 'First', url: 'https://example.com/1', section: 'Gear', imageUrl: null, displayOrder: 1, enabled: true },
    ])
  })

  it('sends a link whose section no longer exists without one, and a setup id that is not a number as null', () => {
    const draft = draftFromEditor(sampleEditor({ links: sampleLinks(1) }))
    draft.links[0]!.section = 'Gone'
    draft.rigpageSetupId = Number.NaN
    const body = toRequest(draft)
    expect(body.links?.[0]?.section).toBeNull()
    expect(body.rigpageSetupId).toBeNull()
  })

  it('lists each non-empty section name once', () => {
    expect(sectionNames([{ key: 'a', name: ' A ' }, { key: 'b', name: '' }, { key: 'c', name: 'A' }, { key: 'd', name: 'B' }])).toEqual(['A', 'B'])
  })
})

describe('helpers', () => {
  it('applies a theme preset', () => {
    const theme = sampleThemes.themes[1] as Parameters<typeof applyTheme>[1]
    const draft = applyTheme(draftFromEditor(sampleEditor()), theme)
    expect(draft).toMatchObject({ rigpageTheme: 'matrix', rigpageHighlightColor: '#00FF41', buttonStyle: 'outline', buttonCornerRadius: 0, fontStyle: 'mono', backgroundOverlay: '#000000' })
  })

  it('checks images before uploading them', () => {
    expect(imageProblem({ type: 'image/png', size: 1000 })).toBeNull()
    expect(imageProblem({ type: 'image/webp', size: 5 * 1024 * 1024 })).toBeNull()
    expect(imageProblem({ type: 'image/gif', size: 1000 })).toBe('Please upload a valid image (PNG, JPG, or WebP)')
    expect(imageProblem({ type: 'image/jpeg', size: 5 * 1024 * 1024 + 1 })).toBe('Image must be less than 5MB')
  })

  it('moves an item', () => {
    expect(moveItem(['a', 'b', 'c', 'd'], 3, 1)).toEqual(['a', 'd', 'b', 'c'])
    expect(moveItem(['a', 'b'], 0, 5)).toEqual(['a', 'b'])
  })

  it('zooms in steps of 25 between 50 and 150', () => {
    expect(zoomBy(100, 1)).toBe(125)
    expect(zoomBy(150, 1)).toBe(150)
    expect(zoomBy(75, -1)).toBe(50)
    expect(zoomBy(50, -1)).toBe(50)
  })

  it('warns of a rename only for a page that has been public, and not for a change of case', () => {
    const live = { saved: true, everPublished: true, rigpageSlug: 'Pixel_Pete' }
    expect(renamesLivePage(live, 'pixel_pete2')).toBe(true)
    expect(renamesLivePage(live, ' pixel_pete ')).toBe(false)
    expect(renamesLivePage(live, '  ')).toBe(false)
    expect(renamesLivePage({ ...live, everPublished: false }, 'pixel_pete2')).toBe(false)
  })

  it('says credit for exactly one', () => {
    expect(credits(1)).toBe('1 credit')
    expect(credits(0)).toBe('0 credits')
    expect(credits(2)).toBe('2 credits')
  })
})

describe('where a failed save shows', () => {
  it('puts each issue on its field', () => {
    const error = new ApiError(400, 'Please enter a valid URL.', [{ path: 'links.3.url', message: 'Please enter a valid URL.' }, { path: 'rigpageSlug', message: 'URL must be at least 3 characters.' }], 'validation_failed')
    expect(fieldErrorsOf(error)).toEqual({ 'links.3.url': 'Please enter a valid URL.', rigpageSlug: 'URL must be at least 3 characters.' })
  })

  it('puts a taken slug (409) on the slug field', () => {
    const error = new ApiError(409, 'This URL is already taken. Please choose another slug.', [], 'conflict')
    expect(fieldErrorsOf(error)).toEqual({ rigpageSlug: 'This URL is already taken. Please choose another slug.' })
  })

  it('puts a message about the slug on the slug field', () => {
    expect(fieldErrorsOf(new ApiError(400, 'That slug is not allowed.', [], 'bad_request'))).toEqual({ rigpageSlug: 'That slug is not allowed.' })
  })

  it('leaves other failures off the fields', () => {
    expect(fieldErrorsOf(new ApiError(402, "You don't have enough credits: this change costs 1 credit.", [], 'insufficient_credits'))).toEqual({})
    expect(fieldErrorsOf(new Error('network'))).toEqual({})
  })
})

describe('withScheme', () => {
  it('adds https:// to an address typed without one, and leaves the rest alone', () => {
    expect(withScheme('instagram.com/pixel')).toBe('https://instagram.com/pixel')
    expect(withScheme('  twitch.tv/me ')).toBe('https://twitch.tv/me')
    expect(withScheme('www.example.co.uk?x=1')).toBe('https://www.example.co.uk?x=1')
    expect(withScheme('http://example.com')).toBe('http://example.com')
    expect(withScheme('javascript:alert(1)')).toBe('javascript:alert(1)')
    expect(withScheme('not an address')).toBe('not an address')
    expect(withScheme('me@example.com')).toBe('me@example.com')
    expect(withScheme('')).toBe('')
  })
})

describe('fieldName', () => {
  it('names a field as a person would', () => {
    expect(fieldName('links.2.url')).toBe('Link 3 URL')
    expect(fieldName('links.0.label')).toBe('Link 1 label')
    expect(fieldName('rigpageSocialLinks.twitter')).toBe('Twitter / X')
    expect(fieldName('rigpageSlug')).toBe('Page URL')
    expect(fieldName('sections.1')).toBe('Section 2')
  })
})

describe('sections', () => {
  const draft = () => {
    const d = draftFromEditor(sampleEditor({ links: sampleLinks(3), sections: ['Gear', 'Games'] }))
    d.links[0]!.section = 'Gear'
    d.links[1]!.section = 'Games'
    return d
  }

  it('moves the links of a renamed section to its new name, and to none when it has none', () => {
    const d = draft()
    const renamed = renameSection(d, d.sections[0]!.key, ' Desk ')
    expect(renamed.sections.map((s) => s.name)).toEqual([' Desk ', 'Games'])
    expect(renamed.links.map((l) => l.section)).toEqual(['Desk', 'Games', null])
    expect(renameSection(d, d.sections[0]!.key, '  ').links[0]!.section).toBeNull()
  })

  it('takes a removed section from its links, unless another section has the same name', () => {
    const d = draft()
    expect(removeSection(d, d.sections[1]!.key).links.map((l) => l.section)).toEqual(['Gear', null, null])
    d.sections.push({ key: 'twin', name: 'Games' })
    expect(removeSection(d, d.sections[1]!.key).links.map((l) => l.section)).toEqual(['Gear', 'Games', null])
  })
})
