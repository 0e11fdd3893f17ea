import { screen, within } from '@testing-library/react'
import { mockServer, renderApp, signedOut, siteReply } from '@/test-utils'
import HowWeScore from './HowWeScore'

afterEach(() => vi.unstubAllGlobals())

function renderPage(analyzer: 'local' | 'openai' = 'local') {
  mockServer({ 'GET /_api/auth/session': signedOut, 'GET /_api/site': siteReply({ analyzer }) })
  return renderApp(<HowWeScore />, { route: '/how-we-score' })
}

describe('/how-we-score', () => {
  it('has its own title, one heading per topic and one per category', () => {
    renderPage()
    expect(document.title).toBe('How We Score · SetupIQ')
    expect(screen.getByRole('heading', { level: 1, name: 'How We Score' })).toBeInTheDocument()
    const sections = screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent)
    expect(sections).toEqual([
      'The SetupIQ Score',
      'What Each Category Looks At',
      'Tips for a Good Photo',
      'What Gets Refused',
      'Confidence',
      'Under the Hood',
    ])
    const categories = screen.getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent)
    expect(categories).toEqual(['Cable Management', 'RGB/Lighting', 'Desk Cleanliness', 'Monitor Setup', 'Chair & Comfort', 'Aesthetic Vibe'])
    for (const name of categories) {
      const category = screen.getByRole('heading', { level: 3, name: name ?? '' }).parentElement as HTMLElement
      expect(within(category).getAllByRole('term').map((term) => term.textContent)).toEqual(['Scores high', 'Scores low'])
    }
  })

  it('states the weights of the six categories, which add up to 100%', () => {
    renderPage()
    const hood = screen.getByRole('region', { name: 'Under the Hood' })
    const weights = within(hood).getAllByRole('definition').map((weight) => Number.parseInt(weight.textContent ?? '', 10))
    expect(weights).toHaveLength(6)
    expect(weights.reduce((sum, weight) => sum + weight, 0)).toBe(100)
  })

  it('says the photo is rated on our servers only when it is, never "offline" with the AI provider', async () => {
    const { unmount } = renderPage('local')
    expect(await screen.findByText(/rated on our own servers/)).toBeInTheDocument()
    unmount()
    renderPage('openai')
    expect(await screen.findByText(/rated by an AI vision model/)).toBeInTheDocument()
    expect(screen.getByTestId('score-analyzer')).not.toHaveTextContent(/our own servers|offline/)
  })

  it('explains each confidence level', () => {
    renderPage()
    const section = screen.getByRole('region', { name: 'Confidence' })
    expect(within(section).getAllByRole('term').map((term) => term.textContent)).toEqual(['High', 'Medium', 'Low'])
  })
})
