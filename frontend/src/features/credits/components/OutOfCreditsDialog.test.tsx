import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { useAuth } from '@/lib/auth'
import { mockServer, renderApp, signedIn, signedOut } from '@/test-utils'
import { OutOfCreditsDialog, type OutOfCreditsClose } from './OutOfCreditsDialog'

afterEach(() => vi.unstubAllGlobals())

function Harness({ onClose }: { onClose: (reason: OutOfCreditsClose) => void }) {
  const [open, setOpen] = useState(true)
  const { authDialog } = useAuth()
  return (
    <>
      <output aria-label="Auth dialog">{authDialog.open ? authDialog.tab : 'closed'}</output>
      <OutOfCreditsDialog
        open={open}
        onClose={(reason) => {
          setOpen(false)
          onClose(reason)
        }}
      />
    </>
  )
}

const stats = { status: 200, body: { dailyAdsRemaining: 30, potentialCreditsToday: 10, uncreditedAds: 0, adsUntilNextCredit: 3 } }

describe('OutOfCreditsDialog', () => {
  it('offers visitors a path: ads after signing in, signing up for 3 credits, or buying', async () => {
    mockServer({ 'GET /_api/auth/session': signedOut })
    renderApp(<Harness onClose={() => undefined} />)
    const dialog = await screen.findByRole('dialog', { name: 'Choose Your Path' })
    expect(within(dialog).getByRole('heading', { name: 'Watch an Ad' })).toBeInTheDocument()
    expect(within(dialog).getByText('+1 Credit')).toBeInTheDocument()
    expect(within(dialog).getByRole('heading', { name: 'Sign Up Free' })).toBeInTheDocument()
    expect(within(dialog).getByText('+3 Credits')).toBeInTheDocument()
    expect(within(dialog).getByText('Recommended')).toBeInTheDocument()
    expect(within(dialog).getByRole('link', { name: 'Buy Credits' })).toHaveAttribute('href', '/buy-credits')
    expect(within(dialog).getByRole('button', { name: 'Sign In to Watch Ads' })).toBeInTheDocument()
  })

  it('hands Sign Up Free to the auth dialog on the register tab, keeping the analysis', async () => {
    mockServer({ 'GET /_api/auth/session': signedOut })
    const onClose = vi.fn()
    renderApp(<Harness onClose={onClose} />)
    await userEvent.click(await screen.findByRole('button', { name: 'Sign Up Free' }))
    expect(onClose).toHaveBeenCalledWith('auth')
    expect(screen.queryByRole('dialog', { name: 'Choose Your Path' })).not.toBeInTheDocument()
    expect(screen.getByLabelText('Auth dialog')).toHaveTextContent('register')
  })

  it('asks a visitor who wants to watch an ad to sign in', async () => {
    mockServer({ 'GET /_api/auth/session': signedOut })
    const onClose = vi.fn()
    renderApp(<Harness onClose={onClose} />)
    await userEvent.click(await screen.findByRole('button', { name: 'Sign In to Watch Ads' }))
    expect(onClose).toHaveBeenCalledWith('auth')
    expect(screen.getByLabelText('Auth dialog')).toHaveTextContent('login')
  })

  it('tells members they are out of credits and lets them watch an ad, without a sign-up offer', async () => {
    mockServer({ 'GET /_api/auth/session': signedIn({ credits: 0 }), 'GET /_api/credits/ad-stats': stats })
    renderApp(<Harness onClose={() => undefined} />)
    const dialog = await screen.findByRole('dialog', { name: 'Out of Credits!' })
    expect(within(dialog).getByRole('heading', { name: 'Watch an Ad' })).toBeInTheDocument()
    expect(await within(dialog).findByRole('button', { name: 'Watch Ad' })).toBeEnabled()
    expect(within(dialog).queryByRole('button', { name: 'Sign Up Free' })).not.toBeInTheDocument()
    expect(within(dialog).queryByText('+3 Credits')).not.toBeInTheDocument()
    expect(within(dialog).getByRole('link', { name: 'Buy Credits' })).toHaveAttribute('href', '/buy-credits')
  })

  it('reports a dismissal when closed', async () => {
    mockServer({ 'GET /_api/auth/session': signedOut })
    const onClose = vi.fn()
    renderApp(<Harness onClose={onClose} />)
    await screen.findByRole('dialog', { name: 'Choose Your Path' })
    await userEvent.keyboard('{Escape}')
    expect(onClose).toHaveBeenCalledWith('dismiss')
  })
})
