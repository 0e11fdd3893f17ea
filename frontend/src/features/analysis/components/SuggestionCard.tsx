import { useId, useState, type ReactNode } from 'react'
import type { ProductRecommendation, Suggestion } from '../api'

const TIERS = [
  ['budget', 'Budget'],
  ['balanced', 'Balanced'],
  ['premium', 'Premium'],
] as const

function tierName(tier: string): string {
  return TIERS.find(([key]) => key === tier)?.[1] ?? tier
}

/**
 * The link to one suggested product, given the suggestion's title as its context. The page
 * passes the affiliate feature's tracked link.
 */
export type RenderProductLink = (product: ProductRecommendation, context: string) => ReactNode

/**
 * One upgrade suggestion: its recommended product and, on request, the other tiers (the pick
 * is never shown twice). A tier the catalogue has nothing for is left out; with no product at
 * all (every one switched off) the card still says what to improve.
 */
export function SuggestionCard({ suggestion, productLink }: { suggestion: Suggestion; productLink: RenderProductLink }) {
  const [expanded, setExpanded] = useState(false)
  const tiersId = useId()
  const recommended = suggestion.productRecommendation
  const tiers = TIERS.flatMap(([key, name]) => {
    const product = suggestion.tiers[key]
    return product && product.productId !== recommended?.productId ? [{ key, name, product }] : []
  })
  return (
    <li className="card suggestion-card">
      <span className="badge">{suggestion.category}</span>
      <h3>{suggestion.title}</h3>
      <p className="muted">{suggestion.description}</p>
      {recommended && (
        <div className="product-pick">
          <p className="product-pick-label">Recommended pick · {tierName(recommended.tier)}</p>
          <p className="product-name">
            <strong>{recommended.name}</strong> <span className="product-price">{recommended.price}</span>
          </p>
          <p className="hint">{recommended.justification}</p>
          {productLink(recommended, suggestion.title)}
        </div>
      )}
      {tiers.length > 0 && (
        <>
          <button type="button" className="btn btn-ghost btn-sm" aria-expanded={expanded} aria-controls={tiersId} onClick={() => setExpanded((v) => !v)}>
            {expanded ? 'Show Less Options' : 'See More Options'}
          </button>
          <ul id={tiersId} className="plain-list tier-list" hidden={!expanded}>
            {tiers.map(({ key, name, product }) => (
              <li key={key} className="tier">
                <span className="badge">{name}</span>
                <p className="product-name">
                  <strong>{product.name}</strong> <span className="product-price">{product.price}</span>
                </p>
                <p className="hint">{product.justification}</p>
                {productLink(product, suggestion.title)}
              </li>
            ))}
          </ul>
        </>
      )}
    </li>
  )
}
