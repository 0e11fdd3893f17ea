import { toast } from '@/lib/toast'
import { categoryScoreText, formatScore, scoreLabel } from '@/lib/ratingBands'
import type { AnalysisResult } from './api'

/** What the analysed input was: a photo (URL or data URL) or a description. */
export interface ReportInput {
  type: 'image' | 'text'
  value?: string | undefined
  description?: string | undefined
}

const DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'long' })

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c)
}

/** Only web links and our own paths end up in the report. */
function safeUrl(url: string): string | null {
  if (/^https?:\/\//i.test(url) || url.startsWith('/') || /^data:image\/(jpeg|png|webp);base64,/i.test(url)) return url
  return null
}

/**
 * The printable report of spec 000 §7 "PDF export": date, the photo or the description,
 * the rating out of 10, the category scores and the suggestions with their product links.
 */
export function reportHtml(result: AnalysisResult, input: ReportInput, date: Date = new Date(result.createdAt)): string {
  const image = input.type === 'image' ? safeUrl(result.imageUrl ?? input.value ?? '') : null
  const what = image
    ? `<img src="${escapeHtml(image)}" alt="The analysed setup" style="max-width:100%;border-radius:8px">`
    : input.type === 'text' && input.value
      ? `<blockquote>${escapeHtml(input.value)}</blockquote>`
      : ''
  const note = input.description ? `<p><em>${escapeHtml(input.description)}</em></p>` : ''
  const categories = result.categoryRatings
    .map((r) => `<tr><td>${escapeHtml(r.category)}</td><td>${categoryScoreText(r.score)}</td><td>${escapeHtml(r.comment)}</td></tr>`)
    .join('')
  const suggestions = result.suggestions
    .map((s) => {
      const p = s.productRecommendation
      const link = p ? safeUrl(p.link) : null
      const product = p && (link ? `<a href="${escapeHtml(link)}">${escapeHtml(p.name)}</a>` : escapeHtml(p.name))
      const pick = p ? `<br>Recommended: ${product} (${escapeHtml(p.price)})` : ''
      return `<li><strong>${escapeHtml(s.title)}</strong><br>${escapeHtml(s.description)}${pick}</li>`
    })
    .join('')
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>SetupIQ Report</title>
<style>body{font-family:system-ui,sans-serif;color:#111;max-width:760px;margin:2rem auto;padding:0 1rem;line-height:1.5}
h1{margin:0 0 .25rem}.score{font-size:2.5rem;font-weight:800}table{border-collapse:collapse;width:100%}
td{border-bottom:1px solid #ddd;padding:.4rem;vertical-align:top}blockquote{border-left:4px solid #8b5cf6;margin:0;padding:.5rem 1rem;background:#f5f3ff}</style>
</head><body>
<h1>SetupIQ Report</h1>
<p>${escapeHtml(DATE.format(date))}</p>
${what}${note}
<p class="score">${formatScore(result.overallScore)}/10</p>
<p><strong>${escapeHtml(scoreLabel(result.overallScore))}</strong> · ${escapeHtml(result.category)}</p>
<p>${escapeHtml(result.summary)}</p>
<h2>Category Scores</h2><table>${categories}</table>
<h2>Upgrade Suggestions</h2><ol>${suggestions}</ol>
</body></html>`
}

export const PRINT_WINDOW_BLOCKED = 'Could not open print window. Please check your browser settings.'
export const PDF_EXPORT_FAILED = 'An error occurred while exporting to PDF.'

/**
 * Opens a print window with the report and prints it after 500 ms; an error toast with the
 * specification's messages (spec 000 §8 "PDF") when the window is blocked or anything fails.
 */
export function exportPdf(result: AnalysisResult, input: ReportInput): void {
  try {
    const win = window.open('', '_blank')
    if (!win) {
      toast.error(PRINT_WINDOW_BLOCKED)
      return
    }
    win.document.open()
    win.document.write(reportHtml(result, input))
    win.document.close()
    win.focus()
    setTimeout(() => win.print(), 500)
  } catch (error) {
    console.error('PDF export failed', error)
    toast.error(PDF_EXPORT_FAILED)
  }
}
