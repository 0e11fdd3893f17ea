import { render, screen, within } from '@testing-library/react'
import { MemoryRouter } from 'react-router-dom'
import type { AnalysisResult } from '../api'
import { sampleResponse } from '../testFixtures'
import { ResultsView } from './ResultsView'

function renderResult(result: AnalysisResult) {
  render(
    <MemoryRouter>
      <ResultsView result={result} input={{ type: 'image' }} productLink={(product) => <a href={product.link}>{product.name}</a>} />
    </MemoryRouter>,
  )
}

/** The sample result with each category's confidence replaced by `confidence(category)`. */
function withConfidence(confidence: (category: string) => AnalysisResult['categoryRatings'][number]['confidence']): AnalysisResult {
  const result = sampleResponse()
  return {
    ...result,
    categoryRatings: result.categoryRatings.map((rating) => {
      const changed = { ...rating, confidence: confidence(rating.category) }
      // Absent, as in older results and a provider's, rather than present and undefined.
      if (changed.confidence === undefined) delete changed.confidence
      return changed
    }),
  }
}

function card(category: string): HTMLElement {
  return screen.getByRole('heading', { name: category, level: 3 }).closest('li')!
}

describe('category confidence', () => {
  it('says quietly, with its reason, that a score has low confidence', () => {
    renderResult(withConfidence((category) => (category === 'Chair & Comfort' ? 'low' : 'high')))
    const note = within(card('Chair & Comfort')).getByTestId('category-confidence')
    expect(note).toHaveTextContent(/^Low confidence/)
    expect(note).toHaveTextContent('Little to go on in the photo, e.g. no chair visible.')
    expect(note).toHaveAttribute('title', 'Little to go on in the photo, e.g. no chair visible.')
    // High confidence is the normal case and says nothing.
    expect(screen.getAllByTestId('category-confidence')).toHaveLength(1)
  })

  it('says medium confidence', () => {
    renderResult(withConfidence((category) => (category === 'Aesthetic Vibe' ? 'medium' : 'high')))
    expect(within(card('Aesthetic Vibe')).getByTestId('category-confidence')).toHaveTextContent(/^Medium confidence/)
  })

  it('says nothing when the result has no confidence (older results, provider results)', () => {
    renderResult(withConfidence(() => undefined))
    expect(screen.getAllByTestId('category-card')).toHaveLength(6)
    expect(screen.queryByTestId('category-confidence')).not.toBeInTheDocument()
    expect(screen.queryByText(/confidence/i)).not.toBeInTheDocument()
  })

  it('says nothing for a null confidence', () => {
    renderResult(withConfidence(() => null))
    expect(screen.queryByTestId('category-confidence')).not.toBeInTheDocument()
  })

  it('links to how the scores are made, next to the categories', () => {
    renderResult(sampleResponse())
    const section = screen.getByRole('heading', { name: 'Category Breakdown' }).closest('section')!
    expect(within(section).getByRole('link', { name: 'How we score' })).toHaveAttribute('href', '/how-we-score')
  })
})
