import { ShoppingBag } from 'lucide-react'
import { categoryLabel, gearHref, type GearItem } from '../gear'

/**
 * A post's gear: each piece with its category; a piece with a link is shopped through the
 * counted redirect (`/go/gear/{id}`), marked as a sponsored link. `limit` shows the first
 * few (a card) and says how many more there are. `heading` is the level of the list's title
 * below the page's or dialog's own (h2 on the post's page under its h1, h3 in the dialog).
 */
export function GearList({ gear, limit, heading: Heading = 'h3' }: { gear: GearItem[]; limit?: number; heading?: 'h2' | 'h3' }) {
  if (gear.length === 0) return null
  const shown = limit ? gear.slice(0, limit) : gear
  const more = gear.length - shown.length
  return (
    <section className="cm-gear" aria-label="Gear in this setup">
      {!limit && <Heading className="cm-gear-title"><ShoppingBag aria-hidden="true" size={16} /> Gear in this setup</Heading>}
      <ul className="plain-list cm-gear-list">
        {shown.map((item) => (
          <li key={item.id} className="cm-gear-item">
            {item.hasLink ? (
              <a href={gearHref(item.id)} className="text-link" rel="nofollow sponsored noopener" target="_blank">{item.name}</a>
            ) : (
              <span>{item.name}</span>
            )}{' '}
            <span className="badge cm-gear-category">{categoryLabel(item.category)}</span>
          </li>
        ))}
      </ul>
      {more > 0 && <p className="hint">+{more} more</p>}
    </section>
  )
}
