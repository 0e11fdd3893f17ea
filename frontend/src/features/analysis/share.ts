import { formatScore, scoreEmoji, scoreLabel } from '@/lib/ratingBands'

/** What a shared result says, e.g. "My gaming setup scored 7.3/10 on SetupIQ (Impressive 😎)!". */
export function shareText(score: number, url: string): string {
  return `My gaming setup scored ${formatScore(score)}/10 on SetupIQ (${scoreLabel(score)} ${scoreEmoji(score)})! Get your setup rated: ${url}`
}

/** The X/Twitter tweet intent for a result. */
export function tweetIntentUrl(score: number, url: string): string {
  const text = `My gaming setup scored ${formatScore(score)}/10 on SetupIQ (${scoreLabel(score)} ${scoreEmoji(score)})! Get your setup rated:`
  return `https://twitter.com/intent/tweet?${new URLSearchParams({ text, url, hashtags: 'SetupIQ,gamingsetup' }).toString()}`
}
