import { render, screen, within } from '@testing-library/react'
import { MemoryRouter } from 'react-router-dom'
import type { AnalysisResult } from '../api'
import type { ReportInput } from '../report'
import { sampleResponse } from '../testFixtures'
import type { Voice } from '../voice'
import type { Progress } from './ProgressView'
import { ResultsView } from './ResultsView'

function progress(overrides: Partial<Progress> = {}): Progress {
  return {
    previousAnalysisId: 41,
    previousOverallScore: 5.2,
    overallDelta: 2.1,
    categoryDeltas: [
      { category: 'Cable Management', from: 2, to: 4 },
      { category: 'Desk Cleanliness', from: 8, to: 8 },
      { category: 'Monitor Setup', from: 7.5, to: 7 },
    ],
    followedSuggestions: [{ category: 'Cable Management', title: 'Tame your cables' }],
    lines: {
      honest: 'Up 2.1 since last time (5.2 → 7.3); Cable Management improved the most (2 → 4).',
      roast: 'Somebody finally read the suggestions.',
      coach: 'Cable Management paid off (2 → 4). Next: Cable Management.',
    },
    previousInputType: 'image',
    previousImageUrl: '/media/analyses/before.jpg',
    previousThumbnailUrl: '/media/analysis_thumbs/before.jpg',
    previousDescription: null,
    ...overrides,
  }
}

function renderResult(result: AnalysisResult, input: ReportInput = { type: 'image' }, voice: Voice = 'honest') {
  render(
    <MemoryRouter>
      <ResultsView result={result} input={input} voice={voice} productLink={(product) => <a href={product.link}>{product.name}</a>} />
    </MemoryRouter>,
  )
}

describe('a re-rating compared with the setup before', () => {
  it('shows both photos, the overall change with its sign and colour, each category and what was followed', () => {
    renderResult(sampleResponse({ progress: progress() }))
    const view = screen.getByTestId('progress')
    expect(within(view).getByRole('heading', { name: 'Since last time' })).toBeInTheDocument()
    expect(within(screen.getByTestId('progress-before')).getByRole('img')).toHaveAttribute('src', '/media/analyses/before.jpg')
    expect(within(screen.getByTestId('progress-after')).getByRole('img')).toHaveAttribute('src', '/media/analyses/abc.jpg')
    expect(screen.getByTestId('progress-before')).toHaveTextContent('Before 5.2/10')
    expect(screen.getByTestId('progress-after')).toHaveTextContent('After 7.3/10')
    expect(screen.getByTestId('progress-scores')).toHaveTextContent('5.2 7.3')
    const delta = screen.getByTestId('progress-delta')
    expect(delta).toHaveTextContent('+2.1')
    expect(delta).toHaveClass('progress-up')
    const categories = screen.getAllByTestId('progress-category').map((li) => li.textContent)
    expect(categories).toEqual(['Cable Management2/10 → 4/10 +2.0', 'Desk Cleanliness8/10 → 8/10 ', 'Monitor Setup7.5/10 → 7/10 −0.5'])
    expect(screen.getByTestId('progress-followed')).toHaveTextContent('You followed: Tame your cables')
    expect(screen.getByTestId('progress-line')).toHaveTextContent('Up 2.1 since last time')
    expect(screen.getByTestId('progress-next')).toHaveTextContent('What to do next: Tame your cables (Cable Management).')
  })

  it('says a drop in red with a minus sign, and the change in the chosen voice', () => {
    renderResult(sampleResponse({ progress: progress({ overallDelta: -0.4, followedSuggestions: [] }) }), { type: 'image' }, 'roast')
    const delta = screen.getByTestId('progress-delta')
    expect(delta).toHaveTextContent('−0.4')
    expect(delta).toHaveClass('progress-down')
    expect(screen.getByTestId('progress-line')).toHaveTextContent('Somebody finally read the suggestions.')
    expect(screen.queryByTestId('progress-followed')).not.toBeInTheDocument()
  })

  it('puts two descriptions side by side, and says when the earlier analysis was deleted', () => {
    const described = progress({ previousInputType: 'text', previousImageUrl: null, previousThumbnailUrl: null, previousDescription: 'A messy desk with cables everywhere.' })
    renderResult(sampleResponse({ imageUrl: null, progress: described }), { type: 'text', value: 'A tidy desk with a cable tray and a monitor arm.' })
    expect(screen.getByTestId('progress-before')).toHaveTextContent('A messy desk with cables everywhere.')
    expect(within(screen.getByTestId('progress-after')).getByText('A tidy desk with a cable tray and a monitor arm.')).toBeInTheDocument()
  })

  it('keeps the numbers once the earlier analysis is gone', () => {
    const gone = progress({ previousInputType: null, previousImageUrl: null, previousThumbnailUrl: null, previousDescription: null })
    renderResult(sampleResponse({ progress: gone }))
    expect(screen.getByTestId('progress-before')).toHaveTextContent('That analysis was deleted.')
    expect(screen.getByTestId('progress-delta')).toHaveTextContent('+2.1')
  })

  it('shows nothing of the kind for a first rating', () => {
    renderResult(sampleResponse())
    expect(screen.queryByTestId('progress')).not.toBeInTheDocument()
  })
})
