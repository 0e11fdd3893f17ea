import {
  actionLabel, brandSize, brandSvg, bulkConfirmLabel, bulkDetails, bulkQuestion, bulkSummary, canAcceptRedirect, chartSummary, dayLabel, formatCount, formatDateTime, formatUsd,
  sortDirection, targetLabel, verdictLabel, verdictTone,
} from './logic'
import { INVALID_URL, replaceLinkSchema } from './schemas'

describe('formatUsd', () => {
  it('formats US dollars with cents and thousands separators', () => {
    expect(formatUsd(0)).toBe('$0.00')
    expect(formatUsd(12.5)).toBe('$12.50')
    expect(formatUsd(1234.567)).toBe('$1,234.57')
    expect(formatUsd(Number.NaN)).toBe('$0.00')
  })

  it('formats counts with separators', () => {
    expect(formatCount(12345)).toBe('12,345')
  })
})

describe('verdictLabel', () => {
  it.each([
    [{ health: 'dead', verdict: 'dead', statusCode: 404 }, 'Dead (404)', 'danger'],
    [{ health: 'dead', verdict: 'dead', statusCode: null }, 'Dead', 'danger'],
    [{ health: 'dead', verdict: 'timeout' }, 'Timeout', 'danger'],
    [{ health: 'dead', verdict: 'refused' }, 'Connection refused', 'danger'],
    [{ health: 'dead', verdict: 'error', statusCode: 500 }, 'Error (500)', 'danger'],
    [{ health: 'warning', verdict: 'home_page_redirect' }, 'Redirects to home page', 'warning'],
    [{ health: 'warning', verdict: 'tag_dropped' }, 'Affiliate tag dropped', 'warning'],
    [{ health: 'unknown', verdict: 'bot_check' }, 'Bot check (unknown)', 'neutral'],
    [{ health: 'healthy', verdict: null }, 'Healthy', 'success'],
    [{ health: null, verdict: null }, 'Not checked yet', 'neutral'],
  ] as const)('%o -> %s', (link, label, tone) => {
    expect(verdictLabel(link)).toBe(label)
    expect(verdictTone(link)).toBe(tone)
  })

  it('offers Accept redirect for warnings only', () => {
    expect(canAcceptRedirect({ health: 'warning' })).toBe(true)
    expect(canAcceptRedirect({ health: 'dead' })).toBe(false)
    expect(canAcceptRedirect({ health: 'unknown' })).toBe(false)
  })
})

describe('log and dates', () => {
  it('spells out actions and targets', () => {
    expect(actionLabel('grant_pro')).toBe('Granted Pro')
    expect(actionLabel('dismiss_reports')).toBe('Dismissed reports')
    // A check is logged when it starts, and again when it fails: neither says it verified.
    expect(actionLabel('verify_links')).toBe('Started a link check')
    expect(actionLabel('verify_links_failed')).toBe('Link check failed')
    expect(targetLabel('setup', 12)).toBe('Setup #12')
    expect(actionLabel('verify_email')).toBe('Marked e-mail verified')
    expect(actionLabel('delete_account')).toBe('Deleted account')
  })

  it("says 'Never' without a date", () => {
    expect(formatDateTime(null)).toBe('Never')
    expect(formatDateTime(undefined)).toBe('Never')
    expect(formatDateTime('2026-03-14T09:26:53Z')).toMatch(/Mar 14, 2026/)
  })

  it('labels chart days as UTC days and summarises the chart', () => {
    expect(dayLabel('2026-03-01')).toBe('Mar 1')
    expect(chartSummary([])).toBe('No clicks recorded in this period.')
    expect(chartSummary([{ day: '2026-03-01', clicks: 3 }, { day: '2026-03-02', clicks: 1200 }])).toBe('1,203 clicks over 2 days; busiest day Mar 2 with 1,200 clicks.')
    // One click in the singular; no click names no busiest day.
    expect(chartSummary([{ day: '2026-03-01', clicks: 0 }, { day: '2026-03-02', clicks: 1 }])).toBe('1 click over 2 days; busiest day Mar 2 with 1 click.')
    expect(chartSummary(Array.from({ length: 30 }, (_, i) => ({ day: `2026-03-${String(i + 1).padStart(2, '0')}`, clicks: 0 })))).toBe('No clicks over 30 days.')
  })

  it('sorts categories by name ascending, numbers descending', () => {
    expect(sortDirection('category')).toBe('ascending')
    expect(sortDirection('estimatedRevenue')).toBe('descending')
  })
})

describe('brand assets', () => {
  it('has the three sizes and file names', () => {
    expect(brandSize('full')).toEqual({ width: 2048, height: 2048, filename: 'setupiq-logo-2048.png' })
    expect(brandSize('icon')).toEqual({ width: 1024, height: 1024, filename: 'setupiq-icon-1024.png' })
    expect(brandSize('iq')).toEqual({ width: 1200, height: 800, filename: 'setupiq-iq-1200x800.png' })
  })

  it.each(['full', 'icon', 'iq'] as const)('draws %s as well-formed SVG of its exact size', (variant) => {
    const { width, height } = brandSize(variant)
    const svg = brandSvg(variant)
    const doc = new DOMParser().parseFromString(svg, 'image/svg+xml')
    expect(doc.querySelector('parsererror')).toBeNull()
    const root = doc.documentElement
    expect(root.getAttribute('width')).toBe(String(width))
    expect(root.getAttribute('height')).toBe(String(height))
    expect(root.getAttribute('viewBox')).toBe(`0 0 ${width} ${height}`)
    expect(svg).toContain('IQ')
    expect(svg).toContain('#8b5cf6')
  })

  it('writes the name only on the full logo', () => {
    expect(brandSvg('full')).toContain('Setup')
    expect(brandSvg('icon')).not.toContain('Setup')
    expect(brandSvg('iq')).not.toContain('Setup')
  })
})

describe('replaceLinkSchema', () => {
  it('accepts http and https addresses only', () => {
    expect(replaceLinkSchema.safeParse({ productId: 1, url: 'https://www.amazon.com/dp/B0?tag=x-20' }).success).toBe(true)
    expect(replaceLinkSchema.safeParse({ productId: 1, url: ' http://example.com ' }).data?.url).toBe('http://example.com')
    for (const url of ['ftp://example.com', 'javascript:alert(1)', 'not a url', '']) {
      const result = replaceLinkSchema.safeParse({ productId: 1, url })
      expect(result.success).toBe(false)
      expect(result.error?.issues[0]?.message).toBe(INVALID_URL)
    }
  })
})

describe('bulk actions on accounts', () => {
  it('asks once, naming the action and the count, in the right number', () => {
    expect(bulkQuestion('delete', 3)).toBe('Delete 3 accounts? This cannot be undone.')
    expect(bulkQuestion('delete', 1)).toBe('Delete 1 account? This cannot be undone.')
    expect(bulkQuestion('grant_pro', 1)).toBe('Grant Pro to 1 account?')
    expect(bulkQuestion('revoke_pro', 2)).toBe('Remove Pro from 2 accounts?')
    expect(bulkQuestion('verify', 20)).toBe('Mark 20 accounts as verified?')
    expect(bulkConfirmLabel('delete', 1)).toBe('Delete 1 account')
    expect(bulkDetails('delete', 1)).toMatch(/^Its analyses, posts/)
    expect(bulkDetails('delete', 2)).toMatch(/^Their analyses, posts/)
  })

  it('sums up what changed and what was skipped', () => {
    expect(bulkSummary('delete', 1, 0)).toBe('1 account deleted.')
    expect(bulkSummary('delete', 2, 1)).toBe('2 accounts deleted; 1 skipped.')
    expect(bulkSummary('grant_pro', 0, 3)).toBe('Pro granted to 0 accounts; 3 skipped.')
    expect(bulkSummary('verify', 1, 0)).toBe('1 account marked verified.')
  })
})
