import { sampleResponse, sampleUnseenChair } from './testFixtures'
import { readVoice, VOICE_KEY, voicedResult, voicedUrl, writeVoice } from './voice'

describe('the chosen voice', () => {
  beforeEach(() => localStorage.clear())

  it('is Honest until one is stored under setupiq.voice', () => {
    expect(VOICE_KEY).toBe('setupiq.voice')
    expect(readVoice()).toBe('honest')
    writeVoice('roast')
    expect(localStorage.getItem('setupiq.voice')).toBe('roast')
    expect(readVoice()).toBe('roast')
    writeVoice('coach')
    expect(readVoice()).toBe('coach')
  })

  it('ignores unknown values and unavailable storage', () => {
    localStorage.setItem(VOICE_KEY, 'sarcastic')
    expect(readVoice()).toBe('honest')
    const broken = {
      getItem: () => {
        throw new Error('denied')
      },
      setItem: () => {
        throw new Error('quota')
      },
    } as unknown as Storage
    expect(readVoice(broken)).toBe('honest')
    expect(() => writeVoice('roast', broken)).not.toThrow()
  })
})

describe('voicedResult', () => {
  it('is the result itself in the Honest voice', () => {
    const result = sampleResponse()
    expect(voicedResult(result, 'honest')).toBe(result)
  })

  it('swaps the summary and each comment by category, and nothing else', () => {
    const result = sampleResponse()
    // The voice lists its comments in another order: they are matched by category.
    result.voices.roast.comments.reverse()
    const roast = voicedResult(result, 'roast')
    expect(roast.summary).toBe('Respectable, but the cable management is holding the squad back.')
    expect(roast.categoryRatings.map((r) => r.category)).toEqual(result.categoryRatings.map((r) => r.category))
    expect(roast.categoryRatings.find((r) => r.category === 'Cable Management')?.comment).toBe('Cables hang behind the desk. Spaghetti night, every night.')
    expect(roast.categoryRatings.map(({ comment: _comment, ...rest }) => rest)).toEqual(result.categoryRatings.map(({ comment: _comment, ...rest }) => rest))
    expect(roast.overallScore).toBe(result.overallScore)
    expect(roast.suggestions).toBe(result.suggestions)
  })

  it('keeps an unseen category without a score in every voice', () => {
    const result = sampleUnseenChair()
    for (const voice of ['honest', 'roast', 'coach'] as const) {
      const chair = voicedResult(result, voice).categoryRatings.find((r) => r.category === 'Chair & Comfort')
      expect(chair?.score).toBeNull()
      expect(chair?.percentile).toBeNull()
      expect(chair?.comment).toMatch(/^No chair in view: comfort can't be judged from this photo\./)
    }
  })

    it('keeps a comment the voice has no line for', () => {
    const result = sampleResponse()
    result.voices.coach.comments = result.voices.coach.comments.filter((c) => c.category !== 'Aesthetic Vibe')
    const coach = voicedResult(result, 'coach')
    expect(coach.categoryRatings.find((r) => r.category === 'Aesthetic Vibe')?.comment).toBe('A consistent dark theme')
    expect(coach.categoryRatings.find((r) => r.category === 'Monitor Setup')?.comment).toBe('Two monitors at the same height. Next step: a monitor arm frees the desk.')
  })
})

describe('voicedUrl', () => {
  it('adds ?voice= for Roast and Coach only', () => {
    const url = 'https://setupiq.app/share/tok_123'
    expect(voicedUrl(url, 'honest')).toBe(url)
    expect(voicedUrl(url, 'roast')).toBe('https://setupiq.app/share/tok_123?voice=roast')
    expect(voicedUrl(`${url}/card.png`, 'coach')).toBe('https://setupiq.app/share/tok_123/card.png?voice=coach')
  })

  it('replaces a voice already there and keeps a relative link relative', () => {
    expect(voicedUrl('https://setupiq.app/share/tok?voice=roast', 'coach')).toBe('https://setupiq.app/share/tok?voice=coach')
    expect(voicedUrl('/share/tok/card.png', 'roast')).toBe('/share/tok/card.png?voice=roast')
  })
})
