import useSWR from 'swr'
import { api, unwrap, type Schemas } from '@/api/client'
import { sessionId } from '@/lib/sessionId'

/** A catalogue product as a suggestion recommends it (with its affiliate link). */
export type ProductRecommendation = Schemas['ProductRecommendation']
/** A catalogue product on the trending list. */
export type TrendingItem = Schemas['ProductDto']

export const TRENDING_KEY = '/_api/trending-gear'

export async function fetchTrendingGear(): Promise<TrendingItem[]> {
  return unwrap(await api.GET('/_api/trending-gear'), 'Could not load trending gear.').items
}

/** The trending products: cached 5 minutes. */
export function useTrendingGear() {
  return useSWR(TRENDING_KEY, fetchTrendingGear, { dedupingInterval: 5 * 60_000 })
}

/** Records a click on a product link; failures are only logged (spec 000 §7). */
export async function trackClick(productId: number, context: { suggestionContext?: string; analysisId?: number | null | undefined }) {
  try {
    const body: Schemas['TrackClickRequest'] = { productId, sessionId: sessionId() }
    if (context.suggestionContext) body.suggestionContext = context.suggestionContext
    if (context.analysisId) body.analysisId = context.analysisId
    unwrap(await api.POST('/_api/track-click', { body }), 'Could not record the click.')
  } catch (error) {
    console.error('track-click failed', error)
  }
}
