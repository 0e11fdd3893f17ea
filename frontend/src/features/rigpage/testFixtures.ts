import type { Editor } from './draft'

/** An editor answer as the server sends it for a page saved once, private, no links. */
export function sampleEditor(overrides: Partial<Editor> = {}): Editor {
  return {
    rigpageEnabled: false,
    showRigpageOnCommunity: false,
    rigpageSlug: 'Pixel_Pete',
    rigpageSetupId: 11,
    rigpageAvatar: null,
    rigpageTagline: null,
    rigpageBio: null,
    rigpageSocialLinks: {},
    rigpageTheme: 'dark_neon',
    rigpageHighlightColor: '#8B5CF6',
    fontStyle: 'sans-serif',
    buttonStyle: 'solid',
    buttonCornerRadius: 50,
    backgroundImage: null,
    backgroundOverlay: '#000000',
    backgroundBlur: 5,
    backgroundOpacity: 100,
    showSetupInBackground: true,
    showGear: false,
    sections: [],
    links: [],
    saved: false,
    everPublished: false,
    paidLinkBatches: 0,
    freeLinks: 5,
    linksPerBatch: 10,
    publishCost: 1,
    publicUrl: 'http://localhost/rig/Pixel_Pete',
    username: 'Pixel_Pete',
    displayName: 'Pixel Pete',
    profilePicture: null,
    credits: 3,
    bestScore: 7.46,
    deadLinkIds: [],
    setups: [
      { id: 11, overallRating: 7.5, createdAt: '2026-03-14T09:26:53Z', inputType: 'image', inputData: '/media/analyses/11.jpg', thumbnailUrl: '/media/analyses/11-thumb.jpg' },
      { id: 7, overallRating: 6.1, createdAt: '2026-03-10T09:26:53Z', inputType: 'image', inputData: '/media/analyses/7.jpg', thumbnailUrl: null },
    ],
    ...overrides,
  }
}

/** `count` saved links, in order. */
export function sampleLinks(count: number): Editor['links'] {
  return Array.from({ length: count }, (_, i) => ({
    id: 100 + i,
    label: `Link ${i + 1}`,
    url: `https://example.com/${i + 1}`,
    section: null,
    imageUrl: null,
    displayOrder: i,
    enabled: true,
  }))
}

export const sampleThemes = {
  themes: [
    { id: 'dark_neon', name: 'Dark Neon', highlightColor: '#8B5CF6', buttonStyle: 'outline', buttonCornerRadius: 50, fontStyle: 'gaming', backgroundOverlay: '#000000' },
    { id: 'matrix', name: 'Matrix', highlightColor: '#00FF41', buttonStyle: 'outline', buttonCornerRadius: 0, fontStyle: 'mono', backgroundOverlay: '#000000' },
  ],
}
