/**
 * Plain text cut into its words and its web links, so a page can show the text as text
 * (React escapes it) and make only `http(s)://` links clickable. A link stops at white
 * space and gives back trailing punctuation (`see https://a.example/x.` links `/x`).
 */
export type TextPart = { kind: 'text'; text: string } | { kind: 'link'; href: string }

const LINK = /https?:\/\/[^\s<>"]+/gi
const TRAILING = /[.,;:!?)\]}'"]+$/

export function linkify(text: string): TextPart[] {
  const parts: TextPart[] = []
  let last = 0
  for (const match of text.matchAll(LINK)) {
    const start = match.index ?? 0
    const href = match[0].replace(TRAILING, '')
    if (start > last) parts.push({ kind: 'text', text: text.slice(last, start) })
    parts.push({ kind: 'link', href })
    last = start + href.length
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) })
  return parts
}
