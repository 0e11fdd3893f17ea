import { escapeHtml, reportHtml } from './report'
import { shareText, tweetIntentUrl } from './share'
import { sampleResponse, sampleUnseenChair } from './testFixtures'

describe('the PDF report', () => {
  it('has the date, the photo, the rating and the suggestions with their links', () => {
    const html = reportHtml(sampleResponse(), { type: 'image', value: 'data:image/jpeg;base64,AAAA' }, new Date('2026-03-14T12:00:00Z'))
    expect(html).toContain('March 14, 2026')
    expect(html).toContain('<img src="/media/analyses/abc.jpg"')
    expect(html).toContain('7.3/10')
    expect(html).toContain('Tame your cables')
    expect(html).toContain('<a href="https://shop.example.com/p/11">Cable Tray Basic</a> ($19.99)')
  })

  it('quotes a description and escapes what it prints', () => {
    const result = sampleResponse({ imageUrl: null, summary: '<script>alert(1)</script>' })
    const html = reportHtml(result, { type: 'text', value: 'My "desk" & <chair>' })
    expect(html).toContain('<blockquote>My &quot;desk&quot; &amp; &lt;chair&gt;</blockquote>')
    expect(html).not.toContain('<script>alert(1)')
    expect(escapeHtml(`'`)).toBe('&#39;')
  })

  it('prints an unseen category as -/10 with its reason', () => {
    const html = reportHtml(sampleUnseenChair(), { type: 'image' })
    expect(html).toContain("<td>Chair &amp; Comfort</td><td>-/10</td><td>No chair in view: comfort can&#39;t be judged from this photo.</td>")
    expect(html).toContain('<td>Cable Management</td><td>4/10</td>')
    expect(html).not.toContain('null/10')
  })

  it('prints a half-point category score as 6.5/10 and a whole one as 7/10', () => {
    const result = sampleResponse()
    const html = reportHtml(
      { ...result, categoryRatings: result.categoryRatings.map((r) => (r.category === 'Cable Management' ? { ...r, score: 6.5 } : r)) },
      { type: 'image' },
    )
    expect(html).toContain('<td>Cable Management</td><td>6.5/10</td>')
    expect(html).toContain('<td>Monitor Setup</td><td>7/10</td>')
  })

  it('drops links that are not web links', () => {
    const result = sampleResponse()
    result.suggestions[0]!.productRecommendation!.link = 'javascript:alert(1)'
    expect(reportHtml(result, { type: 'text', value: 'x' })).not.toContain('javascript:')
  })
})

describe('sharing', () => {
  it('tells the score, its label and where to get rated', () => {
    expect(shareText(7.3, 'https://setupiq.example')).toBe(
      'My gaming setup scored 7.3/10 on SetupIQ (Impressive 😎)! Get your setup rated: https://setupiq.example',
    )
    const intent = new URL(tweetIntentUrl(9, 'https://setupiq.example'))
    expect(intent.origin + intent.pathname).toBe('https://twitter.com/intent/tweet')
    expect(intent.searchParams.get('text')).toContain('9.0/10')
    expect(intent.searchParams.get('url')).toBe('https://setupiq.example')
  })
})
