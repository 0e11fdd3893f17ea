import { useId, useState } from 'react'
import { trackClick, type ProductRecommendation, type Suggestion } from '../api'

const TIERS = [
  ['budget', 'Budget'],
  ['balanced', 'Balanced'],
  ['premium', 'Premium'],
] as const

function tierName(tier: string): string {
  return TIERS.find(([key]) => key === tier)?.[1] ?? tier
}

interface ProductLinkProps {
  product: ProductRecommendation
  context: string
  analysisId: number | null | undefined
  label?: string
}

/** An affiliate link that records the click (the navigation is never held up by it). */
export function ProductLink({ product, context, analysisId, label = 'View Product' }: ProductLinkProps) {
  return (
    <a
      className="btn btn-secondary btn-sm"
      href={product.link}
      target="_blank"
      rel="noopener noreferrer sponsored"
      onClick={() => void trackClick(product.productId, { suggestionContext: context, analysisId })}
    >
      {label}
      <span className="sr-only">: {product.name} (opens in a new tab)</span>
    </a>
  )
}

/** One upgrade suggestion: its recommended product and, on request, the three tiers. */
export function SuggestionCard({ suggestion, analysisId }: { suggestion: Suggestion; analysisId: number | null | undefined }) {
  const [expanded, setExpanded] = useState(false)
  const tiersId = useId()
  const recommended = suggestion.productRecommendation
  return (
    <li className="card suggestion-card">
      <span className="badge">{suggestion.category}</span>
      <h3>{suggestion.title}</h3>
      <p className="muted">{suggestion.description}</p>
      <div className="product-pick">
        <p className="product-pick-label">Recommended pick · {tierName(recommended.tier)}</p>
        <p className="product-name">
          <strong>{recommended.name}</strong> <span className="product-price">{recommended.price}</span>
        </p>
        <p className="hint">{recommended.justification}</p>
        <ProductLink product={recommended} context={suggestion.title} analysisId={analysisId} />
      </div>
      <button type="button" className="btn btn-ghost btn-sm" aria-expanded={expanded} aria-controls={tiersId} onClick={() => setExpanded((v) => !v)}>
        {expanded ? 'Show Less Options' : 'See More Options'}
      </button>
      <ul id={tiersId} className="plain-list tier-list" hidden={!expanded}>
        {TIERS.map(([key, name]) => {
          const product = suggestion.tiers[key]
          return (
            <li key={key} className="tier">
              <span className="badge">{name}</span>
              <p className="product-name">
                <strong>{product.name}</strong> <span className="product-price">{product.price}</span>
              </p>
              <p className="hint">{product.justification}</p>
              <ProductLink product={product} context={suggestion.title} analysisId={analysisId} />
            </li>
          )
        })}
      </ul>
    </li>
  )
}
