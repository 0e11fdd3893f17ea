import { screen } from '@testing-library/react'
import { mockServer, renderApp, signedOut } from '@/test-utils'
import { sampleSetup, stubCarouselDom } from '../testFixtures'
import { SetupPage } from './SetupPage'

beforeEach(() => stubCarouselDom())

afterEach(() => vi.unstubAllGlobals())

describe('a setup page', () => {
  it('shows the setup, its score and its comments', async () => {
    mockServer({
      'GET /_api/auth/session': signedOut,
      'GET /_api/community/setups/7': { status: 200, body: sampleSetup({ commentCount: 0 }) },
      'GET /_api/community/comments': { status: 200, body: { comments: [], pagination: { total: 0, limit: 50, offset: 0, hasMore: false } } },
    })
    renderApp(<SetupPage setupId={7} />)
    expect(await screen.findByRole('heading', { name: 'Neon Den', level: 1 })).toBeInTheDocument()
    expect(screen.getByText('SetupIQ Score: 8.2/10')).toBeInTheDocument()
    expect(await screen.findByText('No comments yet.', { exact: false })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Log in to comment' })).toBeInTheDocument()
  })

  it('says plainly when the setup is gone', async () => {
    mockServer({
      'GET /_api/auth/session': signedOut,
      'GET /_api/community/setups/9': { status: 404, body: { error: 'Setup not found.', code: 'not_found' } },
    })
    renderApp(<SetupPage setupId={9} />)
    expect(await screen.findByRole('heading', { name: 'Setup Not Found' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Back to Community' })).toHaveAttribute('href', '/community')
  })
})
