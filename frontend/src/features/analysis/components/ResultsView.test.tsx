import { render, screen, within } from '@testing-library/react'
import { MemoryRouter } from 'react-router-dom'
import type { AnalysisResult } from '../api'
import type { ReportInput } from '../report'
import { sampleResponse, sampleUnseenChair } from '../testFixtures'
import type { Voice } from '../voice'
import { ResultsView } from './ResultsView'

function renderResult(result: AnalysisResult, inputType: ReportInput['type'] = 'image', voice: Voice = 'honest') {
  render(
    <MemoryRouter>
      <ResultsView result={result} input={{ type: inputType }} voice={voice} productLink={(product) => <a href={product.link}>{product.name}</a>} />
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
    expect(note).toHaveTextContent('Little to go on in the photo here.')
    expect(note).toHaveAttribute('title', 'Little to go on in the photo here.')
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

describe('half-point category scores', () => {
  it('shows 6.5/10 with its band and percentile, and a whole score as 7/10', () => {
    const result = sampleResponse()
    renderResult({
      ...result,
      categoryRatings: result.categoryRatings.map((rating) =>
        rating.category === 'Cable Management' ? { ...rating, score: 6.5, percentile: 'Top 50%' } : rating,
      ),
    })
    const cables = within(card('Cable Management')).getByTestId('category-score')
    expect(cables).toHaveTextContent('6.5/10')
    expect(cables).toHaveClass('category-good')
    expect(within(card('Cable Management')).getByText('Top 50%')).toBeInTheDocument()
    const monitors = within(card('Monitor Setup')).getByTestId('category-score')
    expect(monitors).toHaveTextContent('7/10')
    expect(monitors).not.toHaveTextContent('7.0')
  })
})

describe('a category the photo does not show', () => {
  it('shows -/10 with its reason, and no percentile, band colour or confidence', () => {
    renderResult(sampleUnseenChair())
    const chair = card('Chair & Comfort')
    const score = within(chair).getByTestId('category-score')
    expect(score).toHaveTextContent('-/10')
    expect(score).toHaveClass('category-neutral')
    expect(chair).toHaveAttribute('data-unseen', 'true')
    expect(within(chair).getByText("No chair in view: comfort can't be judged from this photo.")).toBeInTheDocument()
    expect(within(chair).queryByText(/%/)).not.toBeInTheDocument()
    expect(within(chair).queryByTestId('category-confidence')).not.toBeInTheDocument()
    // The seen categories keep their scores, bands and percentiles.
    const cables = card('Cable Management')
    expect(within(cables).getByTestId('category-score')).toHaveTextContent('4/10')
    expect(within(cables).getByTestId('category-score')).toHaveClass('category-ok')
    expect(within(cables).getByText('Bottom 35%')).toBeInTheDocument()
    expect(screen.getAllByText('-/10')).toHaveLength(1)
  })

  it('keeps -/10 in every voice', () => {
    renderResult(sampleUnseenChair(), 'image', 'coach')
    const chair = card('Chair & Comfort')
    expect(within(chair).getByTestId('category-score')).toHaveTextContent('-/10')
    expect(within(chair).getByText(/show the chair in your next photo/)).toBeInTheDocument()
  })
})

describe('a description-based result', () => {
  it('never speaks of a photo in its confidence notes', () => {
    renderResult(withConfidence((category) => (category === 'Aesthetic Vibe' ? 'low' : 'medium')), 'text')
    const notes = screen.getAllByTestId('category-confidence')
    expect(notes).toHaveLength(6)
    for (const note of notes) {
      expect(note.textContent).not.toMatch(/photo shows|in the photo|in view/i)
      expect(note.getAttribute('title')).not.toMatch(/photo shows|in the photo|in view/i)
    }
    expect(within(card('Monitor Setup')).getByTestId('category-confidence')).toHaveAttribute(
      'title',
      'Rated from what your description says, without a photo to confirm it.',
    )
  })

  it('counts the cables the description mentions rather than spots them', () => {
    renderResult(sampleResponse(), 'text')
    expect(screen.getByText('1 cable mentioned')).toBeInTheDocument()
    expect(screen.queryByText(/spotted/)).not.toBeInTheDocument()
  })
})
