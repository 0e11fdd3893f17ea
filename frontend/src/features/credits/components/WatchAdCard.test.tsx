import '@testing-library/jest-dom/vitest'
import { act, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Toaster } from 'sonner'
import { useAuth } from '@/lib/auth'
import { mockServer, renderApp, signedIn, signedOut } from '@/test-utils'
import { WatchAdCard } from './WatchAdCard'

afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

const stats = (dailyAdsRemaining: number, uncreditedAds = 0) => ({
  status: 200,
  body: { dailyAdsRemaining, potentialCreditsToday: Math.ceil(dailyAdsRemaining / 3), uncreditedAds, adsUntilNextCredit: 3 - uncreditedAds },
})

function Probe() {
  const { user, authDialog } = useAuth()
  return (
    <>
      <output aria-label="Balance">{user?.credits ?? '-'}</output>
      <output aria-label="Auth dialog">{authDialog.open ? authDialog.tab : 'closed'}</output>
    </>
  )
}

function renderCard() {
  renderApp(
    <>
      <Probe />
      <WatchAdCard />
      <Toaster />
    </>,
  )
}

describe('WatchAdCard', () => {
  it('asks visitors to sign in', async () => {
    mockServer({ 'GET /_api/auth/session': signedOut })
    renderCard()
    await userEvent.click(await screen.findByRole('button', { name: 'Sign In to Watch Ads' }))
    expect(screen.getByLabelText('Auth dialog')).toHaveTextContent('login')
  })

  it('is disabled once the daily limit is reached', async () => {
    mockServer({ 'GET /_api/auth/session': signedIn(), 'GET /_api/credits/ad-stats': stats(0) })
    renderCard()
    expect(await screen.findByRole('button', { name: 'Daily Limit Reached' })).toBeDisabled()
  })

  it('plays a 3-second ad, claims it and shows the earned credit', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    let claimed = false
    const { calls } = mockServer({
      'GET /_api/auth/session': () => signedIn({ credits: claimed ? 4 : 3 }),
      'GET /_api/credits/ad-stats': () => stats(claimed ? 27 : 28, claimed ? 0 : 2),
      'POST /_api/watch-ad/start': { status: 200, body: { adToken: 'token-1' } },
      'POST /_api/watch-ad': () => {
        claimed = true
        return { status: 200, body: { creditAwarded: true, credits: 4, adsUntilNextCredit: 3, adsWatchedInSession: 0 } }
      },
    })
    renderCard()
    await userEvent.click(await screen.findByRole('button', { name: 'Watch Ad' }))
    const progress = await screen.findByRole('progressbar', { name: 'Ad playing' })
    expect(progress).toHaveAttribute('aria-valuetext', '3 seconds left')
    expect(screen.getByRole('button', { name: 'Watching... 3s' })).toBeDisabled()
    expect(calls.some((c) => c.path === '/_api/watch-ad')).toBe(false)

    await act(() => vi.advanceTimersByTimeAsync(2000))
    expect(progress).toHaveAttribute('aria-valuetext', '1 second left')
    expect(calls.some((c) => c.path === '/_api/watch-ad')).toBe(false)
    await act(() => vi.advanceTimersByTimeAsync(1000))

    expect(await screen.findByText('Credit earned! You now have 4 credits. Watch 3 more ads for another credit.')).toBeInTheDocument()
    expect(calls.find((c) => c.path === '/_api/watch-ad')?.body).toEqual({ adToken: 'token-1' })
    expect(screen.getByLabelText('Balance')).toHaveTextContent('4')
    expect(await screen.findByRole('button', { name: 'Watch Ad' })).toBeEnabled()
    await waitFor(() => expect(calls.filter((c) => c.path === '/_api/credits/ad-stats').length).toBeGreaterThan(1))
  })

  it('explains the daily limit', async () => {
    mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/credits/ad-stats': stats(1),
      'POST /_api/watch-ad/start': { status: 429, body: { error: 'Daily ad watch limit reached. Come back tomorrow for more credits!', code: 'daily_ad_limit' } },
    })
    renderCard()
    await userEvent.click(await screen.findByRole('button', { name: 'Watch Ad' }))
    expect(
      await screen.findByText("Daily limit reached! You've watched the maximum 30 ads today. Come back tomorrow for more credits!"),
    ).toBeInTheDocument()
  })
})
