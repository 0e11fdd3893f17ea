import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Route, Routes } from 'react-router-dom'
import { GUIDES } from '@/features/guides/guides'
import { mockServer, renderApp, signedOut } from '@/test-utils'
import Guide from './Guide'
import Tips from './Tips'

afterEach(() => vi.unstubAllGlobals())

function app(route: string) {
  mockServer({ 'GET /_api/auth/session': signedOut })
  return renderApp(
    <Routes>
      <Route path="/tips" element={<Tips />} />
      <Route path="/tips/:slug" element={<Guide />} />
    </Routes>,
    { route },
  )
}

it('opens every guide from its Read Guide link, and each has something to read', async () => {
  expect(GUIDES).toHaveLength(4)
  for (const guide of GUIDES) {
    const { unmount } = app('/tips')
    const card = screen.getByRole('heading', { name: guide.title }).closest('li') as HTMLElement
    await userEvent.click(within(card).getByRole('link', { name: /Read Guide/ }))
    expect(await screen.findByRole('heading', { level: 1, name: guide.title })).toBeInTheDocument()
    expect(screen.getAllByRole('heading', { level: 2 }).length).toBeGreaterThanOrEqual(3)
    expect(screen.getByRole('link', { name: 'All guides' })).toHaveAttribute('href', '/tips')
    expect(document.title).toBe(`${guide.title} · SetupIQ`)
    unmount()
  }
})

it('says Not Found for a guide that does not exist', () => {
  app('/tips/free-gpu')
  expect(screen.getByRole('heading', { name: 'Not Found' })).toBeInTheDocument()
})
