import { act, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter } from 'react-router-dom'
import { CONSENT_KEY } from '@/lib/cookieConsent'
import { CookieConsentProvider } from './CookieConsent'

function renderConsent() {
  return render(
    <MemoryRouter>
      <CookieConsentProvider>
        <p>page</p>
      </CookieConsentProvider>
    </MemoryRouter>,
  )
}

describe('cookie consent', () => {
  beforeEach(() => localStorage.clear())

  it('asks until a choice is stored, and accepting hides the banner', async () => {
    renderConsent()
    const banner = screen.getByRole('region', { name: 'Cookie consent' })
    expect(banner).toHaveTextContent('SetupIQ uses cookies and AI services to analyze your setups.')
    expect(screen.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy-policy')
    await userEvent.click(screen.getByRole('button', { name: 'Accept' }))
    expect(screen.queryByRole('region', { name: 'Cookie consent' })).not.toBeInTheDocument()
    expect(localStorage.getItem(CONSENT_KEY)).toBe('accepted')
  })

  it('stays hidden when a choice exists', () => {
    localStorage.setItem(CONSENT_KEY, 'declined')
    renderConsent()
    expect(screen.queryByRole('region', { name: 'Cookie consent' })).not.toBeInTheDocument()
  })

  it('declining shows a note for 5 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    try {
      renderConsent()
      await userEvent.click(screen.getByRole('button', { name: 'Decline' }))
      expect(localStorage.getItem(CONSENT_KEY)).toBe('declined')
      expect(screen.getByRole('status')).toHaveTextContent('Optional cookies declined')
      act(() => vi.advanceTimersByTime(4900))
      expect(screen.queryByRole('status')).toBeInTheDocument()
      act(() => vi.advanceTimersByTime(200))
      expect(screen.queryByRole('status')).not.toBeInTheDocument()
    } finally {
      vi.useRealTimers()
    }
  })
})
