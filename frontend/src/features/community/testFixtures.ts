import type { CommunitySetup, SavedAnalysis } from './api'

/** What an analysis saw, as its saved result holds it (tests only): two monitors, a chair,
 *  lighting, a power cable. */
export function sampleResult(): SavedAnalysis['result'] {
  return {
    overallScore: 7.3,
    summary: 'A clean dual-monitor battlestation with strong RGB.',
    category: 'RGB Gaming Battlestation',
    categoryRatings: [
      { category: 'Cable Management', score: 4, comment: 'Cables hang behind the desk', percentile: 'Bottom 35%', confidence: 'high' },
      { category: 'RGB/Lighting', score: 9, comment: 'Coordinated purple lighting', percentile: 'Top 5%', confidence: 'high' },
      { category: 'Desk Cleanliness', score: 8, comment: 'Mostly clear surface', percentile: 'Top 15%', confidence: 'high' },
      { category: 'Monitor Setup', score: 7, comment: 'Two monitors at the same height', percentile: 'Top 30%', confidence: 'high' },
      { category: 'Chair & Comfort', score: 6, comment: 'A gaming chair with armrests', percentile: 'Top 50%', confidence: 'medium' },
      { category: 'Aesthetic Vibe', score: 8, comment: 'A consistent dark theme', percentile: 'Top 15%', confidence: 'high' },
    ],
    suggestions: [],
    cableInventory: { type: 'cables_found', cables: [{ cableType: 'power', location: 'under the desk', isAesthetic: false, description: 'A loose power strip cable' }], totalCount: 1 },
    analyzer: 'local',
    createdAt: '2026-03-14T09:26:53Z',
    voices: {},
  } as unknown as SavedAnalysis['result']
}

export function sampleSetup(overrides: Partial<CommunitySetup> = {}): CommunitySetup {
  return {
    id: 7,
    imageUrl: '/media/a.jpg',
    images: ['/media/a.jpg', '/media/b.jpg'],
    thumbnails: ['/media/a_t.jpg', '/media/b_t.jpg'],
    title: 'Neon Den',
    description: 'Purple everything',
    score: 5,
    userVote: null,
    commentCount: 0,
    uploaderId: 2,
    uploaderUsername: 'Gamer_Gina',
    uploaderDisplayName: 'Gina',
    uploaderProfilePicture: null,
    uploaderIsPro: true,
    uploaderRigPageSlug: null,
    uploaderShowsRigPage: false,
    createdAt: '2026-03-14T09:26:53Z',
    updatedAt: '2026-03-14T09:26:53Z',
    analysis: { id: 3, overallRating: 8.2, improvementSuggestions: ['Hide the cables'] },
    gear: [],
    ...overrides,
  }
}

export function setupsPage(setups: CommunitySetup[], hasMore = false) {
  return { status: 200, body: { setups, pagination: { total: setups.length, limit: 20, offset: 0, hasMore }, reportedByYou: 0 } }
}

/** What the carousel needs from a browser that jsdom lacks. */
export function stubCarouselDom() {
  class Observer {
    observe() {}
    unobserve() {}
    disconnect() {}
    takeRecords() {
      return []
    }
  }
  vi.stubGlobal('ResizeObserver', Observer)
  vi.stubGlobal('IntersectionObserver', Observer)
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  }))
}
