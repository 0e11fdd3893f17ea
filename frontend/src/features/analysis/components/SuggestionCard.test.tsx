import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { Suggestion } from '../api'
import { sampleResponse } from '../testFixtures'
import { SuggestionCard } from './SuggestionCard'

function renderCard(suggestion: Suggestion) {
  render(
    <ul>
      <SuggestionCard suggestion={suggestion} productLink={(product) => <a href={product.link}>Buy {product.name}</a>} />
    </ul>,
  )
}

const sample = (): Suggestion => structuredClone(sampleResponse().suggestions[0]!)

describe('SuggestionCard', () => {
  it('shows the pick and, on request, the other tiers without repeating the pick', async () => {
    renderCard(sample())
    expect(screen.getByText('Recommended pick · Budget')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'See More Options' }))
    const tiers = screen.getAllByRole('listitem').filter((item) => item.classList.contains('tier'))
    expect(tiers.map((tier) => within(tier).getByRole('link').textContent)).toEqual(['Buy Cable Spine Pro', 'Buy Under-Desk Raceway Kit'])
    expect(screen.getAllByRole('link', { name: 'Buy Cable Tray Basic' })).toHaveLength(1)
  })

  it('offers no more options when the pick is the only product', () => {
    const suggestion = sample()
    suggestion.tiers.balanced = null
    suggestion.tiers.premium = null
    renderCard(suggestion)
    expect(screen.getByText('Recommended pick · Budget')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'See More Options' })).not.toBeInTheDocument()
  })

  it('leaves out a tier the catalogue has nothing for', async () => {
    const suggestion = sample()
    suggestion.tiers.budget = null
    suggestion.productRecommendation = suggestion.tiers.balanced
    renderCard(suggestion)
    expect(screen.getByText('Recommended pick · Balanced')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'See More Options' }))
    expect(screen.queryByText('Budget')).not.toBeInTheDocument()
    expect(screen.getByText('Premium')).toBeInTheDocument()
    expect(screen.getAllByRole('link', { name: /Buy / })).toHaveLength(2)
  })

  it('still says what to improve when every product is switched off', () => {
    const suggestion = { ...sample(), description: '4/10: Cables hang behind the desk.', productRecommendation: null, tiers: { budget: null, balanced: null, premium: null } }
    renderCard(suggestion)
    expect(screen.getByRole('heading', { name: 'Tame your cables' })).toBeInTheDocument()
    expect(screen.getByText('4/10: Cables hang behind the desk.')).toBeInTheDocument()
    expect(screen.queryByText(/Recommended pick/)).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'See More Options' })).not.toBeInTheDocument()
    expect(screen.queryByRole('link')).not.toBeInTheDocument()
  })
})
