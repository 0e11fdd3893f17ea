import { formatScore, scoreEmoji, scoreLabel } from '@/lib/ratingBands'
import type { ShareLink } from './api'

/** What a shared result says before its link, e.g. "My gaming setup scored 7.3/10 on SetupIQ (Impressive 😎)! Get your setup rated:". */
export function shareMessage(score: number): string {
  return `My gaming setup scored ${formatScore(score)}/10 on SetupIQ (${scoreLabel(score)} ${scoreEmoji(score)})! Get your setup rated:`
}

/** What a shared result says, e.g. "My gaming setup scored 7.3/10 on SetupIQ (Impressive 😎)! Get your setup rated: …". */
export function shareText(score: number, url: string): string {
  return `${shareMessage(score)} ${url}`
}

/** The X/Twitter tweet intent for a result. */
export function tweetIntentUrl(score: number, url: string): string {
  return `https://twitter.com/intent/tweet?${new URLSearchParams({ text: shareMessage(score), url, hashtags: 'SetupIQ,gamingsetup' }).toString()}`
}

/**
 * The link of an analysis already shared, from its `sharePath` (`/share/{token}`): the public
 * page on this origin and its card image, which the server serves at `{page}/card.png`.
 */
export function shareLinkFromPath(sharePath: string, origin: string): ShareLink {
  const url = new URL(sharePath, origin).toString()
  return { url, imageUrl: `${url}/card.png` }
}
