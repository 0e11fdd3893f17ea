import type { CommunitySetup } from './api'

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
