import { render, screen, within } from '@testing-library/react'
import { MemoryRouter } from 'react-router-dom'
import HowWeScore from './HowWeScore'

function renderPage() {
  render(
    <MemoryRouter initialEntries={['/how-we-score']}>
      <HowWeScore />
    </MemoryRouter>,
  )
}

describe('/how-we-score', () => {
  it('has its own title and one heading per topic', () => {
    renderPage()
    expect(document.title).toBe('How We Score · SetupIQ')
    expect(screen.getByRole('heading', { level: 1, name: 'How We Score' })).toBeInTheDocument()
    const sections = screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent)
    expect(sections).toEqual([
      'The SetupIQ Score',
      'How a Photo Is Read',
      'Evidence and Learned Judgement',
      'What Raises and Lowers Each Category',
      'Confidence',
      'What Gets Refused',
      'Tips for a Good Photo',
      'Known Limits',
    ])
    const categories = screen.getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent)
    expect(categories).toEqual(['Cable Management', 'RGB/Lighting', 'Desk Cleanliness', 'Monitor Setup', 'Chair & Comfort', 'Aesthetic Vibe'])
  })

  it('states the weights of the six categories, which add up to 100%', () => {
    renderPage()
    expect(screen.getByTestId('score-weights')).toHaveTextContent(
      'The SetupIQ Score is the weighted mean of six categories: Monitor Setup, Desk Cleanliness and Aesthetic Vibe 20% each, Cable Management and RGB/Lighting 15% each, Chair & Comfort 10%.',
    )
    const weights = screen.getAllByRole('definition').slice(0, 6).map((weight) => Number.parseInt(weight.textContent ?? '', 10))
    expect(weights.reduce((sum, weight) => sum + weight, 0)).toBe(100)
  })

  it('explains each confidence level', () => {
    renderPage()
    const section = screen.getByRole('region', { name: 'Confidence' })
    expect(within(section).getAllByRole('term').map((term) => term.textContent)).toEqual(['High', 'Medium', 'Low'])
  })
})
