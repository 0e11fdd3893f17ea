import '@testing-library/jest-dom/vitest'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Toaster } from 'sonner'
import { useAuth } from '@/lib/auth'
import { mockServer, renderApp, signedIn } from '@/test-utils'
import type { Pack } from '../api'
import { PaymentDialog } from './PaymentDialog'

afterEach(() => vi.unstubAllGlobals())

const starter: Pack = { id: 'starter', name: 'Starter Pack', credits: 10, priceCents: 499, currency: 'usd', popular: false }

const declined = { status: 402, body: { error: 'Your card was declined.', code: 'card_declined' } }

/** The payment endpoints in test mode, with a balance of 3 before and 13 after paying. */
function paymentServer(overrides: Parameters<typeof mockServer>[0] = {}) {
  let paid = false
  return mockServer({
    'GET /_api/auth/session': () => signedIn({ credits: paid ? 13 : 3 }),
    'POST /_api/stripe/create-payment-intent': { status: 200, body: { clientSecret: 'pi_test_1_secret_x', paymentIntentId: 'pi_test_1', testMode: true } },
    'POST /_api/stripe/test-mode/pay': (body) => {
      const { cardNumber } = body as { cardNumber: string }
      if (cardNumber === '4000000000000002') return declined
      paid = true
      return { status: 200, body: { status: 'succeeded' } }
    },
    'POST /_api/stripe/confirm-payment': () => (paid ? { status: 200, body: { creditsAdded: 10, newBalance: 13 } } : { status: 402, body: { error: 'Payment was not successful. Please try again.', code: 'payment_failed' } }),
    ...overrides,
  })
}

function Balance() {
  const { user } = useAuth()
  return <output aria-label="Balance">{user?.credits ?? '-'}</output>
}

function renderDialog(onClose = vi.fn()) {
  renderApp(
    <>
      <Balance />
      <PaymentDialog pack={starter} onClose={onClose} />
      <Toaster />
    </>,
  )
  return { onClose, dialog: screen.getByRole('dialog', { name: 'Complete Your Purchase' }) }
}

async function fillCard(dialog: HTMLElement, number: string) {
  await userEvent.type(await within(dialog).findByLabelText('Card number'), number)
  await userEvent.type(within(dialog).getByLabelText('Expiry date'), '1234')
  await userEvent.type(within(dialog).getByLabelText('CVC'), '123')
  expect(within(dialog).getByLabelText('Expiry date')).toHaveValue('12 / 34')
  await userEvent.click(within(dialog).getByRole('button', { name: 'Pay $4.99' }))
}

describe('PaymentDialog in test mode', () => {
  it('creates the intent on opening, pays, confirms and shows the new balance', async () => {
    const { calls } = paymentServer()
    const { dialog, onClose } = renderDialog()
    expect(within(dialog).getByText('Starter Pack: 10 credits for $4.99')).toBeInTheDocument()
    expect(await within(dialog).findByText('Test mode')).toBeInTheDocument()
    expect(within(dialog).getByText('4242 4242 4242 4242')).toBeInTheDocument()
    expect(within(dialog).getByText('4000 0000 0000 0002')).toBeInTheDocument()
    expect(await screen.findByLabelText('Balance')).toHaveTextContent('3')

    await fillCard(dialog, '4242424242424242')
    expect(await screen.findByText('10 credits added successfully! Your new balance is 13.')).toBeInTheDocument()
    expect(within(dialog).getByRole('heading', { name: 'Payment Successful!' })).toBeInTheDocument()
    expect(screen.getByLabelText('Balance')).toHaveTextContent('13')

    const posts = calls.filter((c) => c.method === 'POST')
    expect(posts).toEqual([
      { method: 'POST', path: '/_api/stripe/create-payment-intent', body: { packageId: 'starter' } },
      { method: 'POST', path: '/_api/stripe/test-mode/pay', body: { paymentIntentId: 'pi_test_1', cardNumber: '4242424242424242' } },
      { method: 'POST', path: '/_api/stripe/confirm-payment', body: { paymentIntentId: 'pi_test_1' } },
    ])
    // The session is read again, so the header badge follows the server.
    await waitFor(() => expect(calls.filter((c) => c.path === '/_api/auth/session').length).toBeGreaterThan(1))

    await userEvent.click(within(dialog).getByRole('button', { name: 'Done' }))
    expect(onClose).toHaveBeenCalled()
  })

  it('shows a declined card in the dialog and credits nothing', async () => {
    const { calls } = paymentServer()
    const { dialog, onClose } = renderDialog()
    await fillCard(dialog, '4000 0000 0000 0002')
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Your card was declined.')
    expect(within(dialog).getByRole('button', { name: 'Pay $4.99' })).toBeEnabled()
    expect(within(dialog).queryByRole('heading', { name: 'Payment Successful!' })).not.toBeInTheDocument()
    expect(calls.some((c) => c.path === '/_api/stripe/confirm-payment')).toBe(false)
    expect(screen.getByLabelText('Balance')).toHaveTextContent('3')
    expect(onClose).not.toHaveBeenCalled()
  })

  it('checks the card form before calling the server', async () => {
    const { calls } = paymentServer()
    const { dialog } = renderDialog()
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Pay $4.99' }))
    expect(await within(dialog).findByText('Your card number is incomplete.')).toBeInTheDocument()
    expect(within(dialog).getByText("Your card's expiration date is incomplete.")).toBeInTheDocument()
    expect(within(dialog).getByText("Your card's security code is incomplete.")).toBeInTheDocument()
    expect(calls.some((c) => c.path === '/_api/stripe/test-mode/pay')).toBe(false)
  })

  it('says so when the payment cannot be initiated', async () => {
    paymentServer({ 'POST /_api/stripe/create-payment-intent': { status: 502, body: { error: 'The payment provider could not be reached. Please try again.', code: 'unavailable' } } })
    const { dialog } = renderDialog()
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Could not initialize payment. Please close this window and try again.')
    expect(await screen.findByText('Could not initiate payment. Please try again.')).toBeInTheDocument()
    expect(within(dialog).queryByLabelText('Card number')).not.toBeInTheDocument()
  })

  it('reports a failed confirmation', async () => {
    paymentServer({ 'POST /_api/stripe/confirm-payment': { status: 402, body: { error: 'Payment was not successful. Please try again.', code: 'payment_failed' } } })
    const { dialog } = renderDialog()
    await fillCard(dialog, '4242424242424242')
    expect(await screen.findByText('Payment confirmation failed. Please contact support.')).toBeInTheDocument()
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Payment was not successful. Please try again.')
  })
})
