import type { AnalyzeResponse, ProductRecommendation, SavedAnalysis } from './api'

const product = (productId: number, name: string, priceCents: number, tier: ProductRecommendation['tier']): ProductRecommendation => ({
  productId,
  name,
  link: `https://shop.example.com/p/${productId}`,
  price: `$${(priceCents / 100).toFixed(2)}`,
  priceCents,
  tier,
  justification: `${name} fixes it.`,
})

/** A complete answer of `POST /_api/analyze-setup`, as the server sends it (tests only). */
export function sampleResponse(overrides: Partial<AnalyzeResponse> = {}): AnalyzeResponse {
  return {
    analysisId: 42,
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
    suggestions: [
      {
        category: 'Cable Management',
        title: 'Tame your cables',
        description: '4/10: Cables hang behind the desk. A tray keeps them off the floor.',
        productRecommendation: product(11, 'Cable Tray Basic', 1999, 'budget'),
        tiers: {
          budget: product(11, 'Cable Tray Basic', 1999, 'budget'),
          balanced: product(12, 'Cable Spine Pro', 4999, 'balanced'),
          premium: product(13, 'Under-Desk Raceway Kit', 12999, 'premium'),
        },
      },
    ],
    cableInventory: {
      type: 'cables_found',
      cables: [{ cableType: 'power', location: 'under the desk, left side', isAesthetic: false, description: 'A loose power strip cable' }],
      totalCount: 1,
    },
    analyzer: 'local',
    imageUrl: '/media/analyses/abc.jpg',
    thumbnailUrl: '/media/analysis_thumbs/abc.jpg',
    createdAt: '2026-03-14T09:26:53Z',
    creditsRemaining: 2,
    freeTrial: false,
    voices: {
      roast: {
        summary: 'Respectable, but the cable management is holding the squad back.',
        comments: [
          { category: 'Cable Management', comment: 'Cables hang behind the desk. Spaghetti night, every night.' },
          { category: 'RGB/Lighting', comment: 'Coordinated purple lighting. Visible from space.' },
          { category: 'Desk Cleanliness', comment: 'Mostly clear surface. Suspiciously tidy.' },
          { category: 'Monitor Setup', comment: 'Two monitors at the same height. Twice the screens, twice the excuses.' },
          { category: 'Chair & Comfort', comment: 'A gaming chair with armrests. Your back sends its regards.' },
          { category: 'Aesthetic Vibe', comment: 'A consistent dark theme. Very main character.' },
        ],
      },
      coach: {
        summary: 'Start with the cable management: one tray lifts the whole score.',
        comments: [
          { category: 'Cable Management', comment: 'Cables hang behind the desk. Next step: a cable tray under the desk.' },
          { category: 'RGB/Lighting', comment: 'Coordinated purple lighting. Keep it: it is your strongest point.' },
          { category: 'Desk Cleanliness', comment: 'Mostly clear surface. Next step: a tray for the small things.' },
          { category: 'Monitor Setup', comment: 'Two monitors at the same height. Next step: a monitor arm frees the desk.' },
          { category: 'Chair & Comfort', comment: 'A gaming chair with armrests. Next step: set the armrests level with the desk.' },
          { category: 'Aesthetic Vibe', comment: 'A consistent dark theme. Next step: one accent colour ties it together.' },
        ],
      },
    },
    ...overrides,
  }
}

/**
 * The sample answer for a photo without a chair in it: Chair & Comfort has no score (the
 * placeholder `-/10`) and the overall score is the mean of the five others (tests only).
 */
export function sampleUnseenChair(overrides: Partial<AnalyzeResponse> = {}): AnalyzeResponse {
  const response = sampleResponse({ overallScore: 7.5, ...overrides })
  const comment = "No chair in view: comfort can't be judged from this photo."
  const voiced = (said: string) => ({ category: 'Chair & Comfort' as const, comment: `${comment} ${said}` })
  return {
    ...response,
    categoryRatings: response.categoryRatings.map((rating) =>
      rating.category === 'Chair & Comfort' ? { category: rating.category, score: null, comment, percentile: null, confidence: 'low' } : rating,
    ),
    voices: {
      roast: { ...response.voices.roast, comments: response.voices.roast.comments.map((c) => (c.category === 'Chair & Comfort' ? voiced('The chair stayed out of frame. Smart move, honestly.') : c)) },
      coach: { ...response.voices.coach, comments: response.voices.coach.comments.map((c) => (c.category === 'Chair & Comfort' ? voiced('Next step: show the chair in your next photo, or describe it, so it can be rated.') : c)) },
    },
  }
}

export function sampleSaved(id: number, overallRating: number, createdAt: string): SavedAnalysis {
  const response: Partial<AnalyzeResponse> = sampleResponse({ analysisId: id, overallScore: overallRating, createdAt })
  delete response.creditsRemaining
  delete response.freeTrial
  const result = response as SavedAnalysis['result']
  return {
    id,
    inputType: 'image',
    inputData: `/media/analyses/${id}.jpg`,
    thumbnailUrl: `/media/analysis_thumbs/${id}.jpg`,
    overallRating,
    improvementSuggestions: ['Tame your cables'],
    status: 'completed',
    createdAt,
    result,
  }
}
