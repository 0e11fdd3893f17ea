import { trackClick, type ProductRecommendation } from '../api'

interface ProductLinkProps {
  product: Pick<ProductRecommendation, 'productId' | 'link' | 'name'>
  /** Where the link was shown (the suggestion's title, `Trending Gear`), sent with the click. */
  context: string
  analysisId?: number | null | undefined
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
