import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { mockServer, renderApp, signedIn } from '@/test-utils'
import type { ProState } from '../api'
import { MembershipRow, membershipText } from './Membership'
import { ProDialog } from './ProDialog'

afterEach(() => vi.unstubAllGlobals())

const PLANS = [
  { plan: 'monthly', name: 'SetupIQ Pro, monthly', priceCents: 499, currency: 'usd', interval: 'month' },
  { plan: 'yearly', name: 'SetupIQ Pro, yearly', priceCents: 3999, currency: 'usd', interval: 'year' },
]
const free = { plans: PLANS, testMode: true, isPro: false, grantedByAdmin: false, subscription: null }
const active = (cancelAtPeriodEnd: boolean) => ({
  ...free,
  isPro: true,
  subscription: { plan: 'monthly', status: 'active', currentPeriodEnd: '2026-04-14T09:00:00Z', cancelAtPeriodEnd },
})

describe('ProDialog', () => {
  it('opens on the plan whose card was clicked', async () => {
    mockServer({ 'GET /_api/auth/session': signedIn(), 'GET /_api/pro': { status: 200, body: free } })
    renderApp(<ProDialog open onOpenChange={() => {}} plan="monthly" />)
    expect(await screen.findByRole('radio', { name: /Monthly/ })).toBeChecked()
    expect(screen.getByRole('radio', { name: /Yearly/ })).not.toBeChecked()
  })

  it('takes a plan, the test card, and says until when Pro runs', async () => {
    const { calls } = mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/pro': { status: 200, body: free },
      'POST /_api/pro/subscribe': { status: 200, body: { subscriptionId: 'sub_test_1', paymentIntentId: 'pi_test_1', clientSecret: 'pi_test_1_secret_x', testMode: true } },
      'POST /_api/stripe/test-mode/pay': { status: 200, body: { status: 'succeeded' } },
      'POST /_api/stripe/confirm-payment': { status: 200, body: { creditsAdded: 0, newBalance: 3, proUntil: '2026-04-14T09:00:00Z' } },
    })
    renderApp(<ProDialog open onOpenChange={() => {}} />)
    await userEvent.click(await screen.findByRole('radio', { name: /Monthly/ }))
    expect(screen.getByText('Unlimited analyses: no credit needed')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Continue to Payment' }))
    await userEvent.type(await screen.findByLabelText('Card number'), '4242424242424242')
    await userEvent.type(screen.getByLabelText('Expiry date'), '1230')
    await userEvent.type(screen.getByLabelText('CVC'), '123')
    await userEvent.click(screen.getByRole('button', { name: 'Pay $4.99' }))
    expect(await screen.findByRole('heading', { name: "You're Pro!" })).toBeInTheDocument()
    expect(screen.getByText('April 14, 2026')).toBeInTheDocument()
    expect(calls.find((c) => c.path === '/_api/pro/subscribe')?.body).toEqual({ plan: 'monthly' })
  })

  it('hands a Stripe subscription to the card provider, and says so when the browser has no key', async () => {
    mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/pro': { status: 200, body: { ...free, testMode: false, publishableKey: null } },
      'POST /_api/pro/subscribe': { status: 200, body: { subscriptionId: 'sub_1', paymentIntentId: 'in_1', clientSecret: 'pi_1_secret_x', testMode: false } },
    })
    renderApp(<ProDialog open onOpenChange={() => {}} />)
    await userEvent.click(await screen.findByRole('button', { name: 'Continue to Payment' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Card payments are not configured. No payment was taken.')
    expect(screen.queryByLabelText('Card number')).not.toBeInTheDocument()
  })

  it('says why a subscription cannot start', async () => {
    mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/pro': { status: 200, body: free },
      'POST /_api/pro/subscribe': { status: 409, body: { error: 'You are already a Pro member. To change plans, cancel your subscription and choose the other plan once your paid period ends.', code: 'conflict' } },
    })
    renderApp(<ProDialog open onOpenChange={() => {}} />)
    await userEvent.click(await screen.findByRole('button', { name: 'Continue to Payment' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('You are already a Pro member. To change plans')
  })
})

describe('membershipText', () => {
  it('says when a renewal failed and is being retried', () => {
    const retrying = { ...active(false), subscription: { ...active(false).subscription, status: 'past_due' } } as ProState
    expect(membershipText(retrying)).toBe('Pro, monthly: the renewal payment failed; your card will be tried again')
    expect(membershipText(active(true) as ProState)).toBe('Pro until April 14, 2026 (cancelled)')
  })
})

describe('MembershipRow', () => {
  it('shows the renewal, cancels to the period end and resumes', async () => {
    let cancelled = false
    const { calls } = mockServer({
      'GET /_api/auth/session': signedIn({ isPro: true }),
      'GET /_api/pro': () => ({ status: 200, body: active(cancelled) }),
      'POST /_api/pro/cancel': () => { cancelled = true; return { status: 200, body: active(true) } },
      'POST /_api/pro/resume': () => { cancelled = false; return { status: 200, body: active(false) } },
    })
    renderApp(<dl><MembershipRow /></dl>)
    const row = await screen.findByTestId('membership')
    await waitFor(() => expect(row).toHaveTextContent('Pro, monthly: renews April 14, 2026'))
    await userEvent.click(screen.getByRole('button', { name: 'Cancel Subscription' }))
    // One click only asks; "Keep Pro" leaves it running, the dialog's button cancels.
    let confirm = await screen.findByRole('dialog', { name: 'Cancel your Pro subscription?' })
    expect(confirm).toHaveTextContent('You keep Pro until April 14, 2026')
    await userEvent.click(within(confirm).getByRole('button', { name: 'Keep Pro' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(calls.some((c) => c.path === '/_api/pro/cancel')).toBe(false)
    await userEvent.click(screen.getByRole('button', { name: 'Cancel Subscription' }))
    confirm = await screen.findByRole('dialog', { name: 'Cancel your Pro subscription?' })
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel Subscription' }))
    await waitFor(() => expect(row).toHaveTextContent('Pro until April 14, 2026 (cancelled)'))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    await userEvent.click(screen.getByRole('button', { name: 'Resume Subscription' }))
    await waitFor(() => expect(row).toHaveTextContent('Pro, monthly: renews April 14, 2026'))
  })

  it('offers the upgrade to a free member', async () => {
    mockServer({ 'GET /_api/auth/session': signedIn(), 'GET /_api/pro': { status: 200, body: free } })
    renderApp(<dl><MembershipRow /></dl>)
    expect(await screen.findByRole('button', { name: 'Upgrade to Pro' })).toBeInTheDocument()
    expect(screen.getByTestId('membership')).toHaveTextContent('Free')
  })
})
