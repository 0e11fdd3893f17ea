import '@testing-library/jest-dom/vitest'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { toast, Toaster } from 'sonner'
import { ApiError } from '@/api/client'
import { useAuth } from '@/lib/auth'
import { mockServer, renderApp, signedIn } from '@/test-utils'
import { useConfirmPurchase } from './useConfirmPurchase'

afterEach(() => {
  // Sonner's toasts outlive a test's Toaster; the next test starts without them.
  toast.dismiss()
  vi.unstubAllGlobals()
})

/** Confirms `pi_1` on a click and shows what came back: the purchase or the error. */
function Probe() {
  const { user } = useAuth()
  const confirmPurchase = useConfirmPurchase()
  const [outcome, setOutcome] = useState('')
  const confirm = () =>
    confirmPurchase('pi_1').then(
      (purchase) => setOutcome(`paid ${purchase.creditsAdded} -> ${purchase.newBalance}`),
      (error: unknown) => setOutcome(error instanceof ApiError ? `failed ${error.status} ${error.code}: ${error.message}` : 'failed'),
    )
  return (
    <>
      <output aria-label="Balance">{user?.credits ?? '-'}</output>
      <output aria-label="Outcome">{outcome}</output>
      <button type="button" onClick={() => void confirm()}>Confirm</button>
      <Toaster />
    </>
  )
}

describe('useConfirmPurchase', () => {
  it('confirms the intent, toasts and shows the new balance at once, then re-reads it', async () => {
    let paid = false
    const { calls } = mockServer({
      'GET /_api/auth/session': () => signedIn({ credits: paid ? 13 : 3 }),
      'POST /_api/stripe/confirm-payment': () => {
        paid = true
        return { status: 200, body: { creditsAdded: 10, newBalance: 13 } }
      },
    })
    renderApp(<Probe />)
    expect(await screen.findByLabelText('Balance')).toHaveTextContent('3')

    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }))
    expect(await screen.findByLabelText('Outcome')).toHaveTextContent('paid 10 -> 13')
    expect(await screen.findByText('10 credits added successfully! Your new balance is 13.')).toBeInTheDocument()
    expect(screen.getByLabelText('Balance')).toHaveTextContent('13')
    expect(calls.filter((c) => c.path === '/_api/stripe/confirm-payment')).toEqual([
      { method: 'POST', path: '/_api/stripe/confirm-payment', body: { paymentIntentId: 'pi_1' } },
    ])
    // The session is read again, so the header badge follows the server.
    await waitFor(() => expect(calls.filter((c) => c.path === '/_api/auth/session').length).toBeGreaterThan(1))
  })

  it('toasts a failed confirmation and hands the server error (with its code) to the form', async () => {
    mockServer({
      'GET /_api/auth/session': signedIn({ credits: 3 }),
      'POST /_api/stripe/confirm-payment': {
        status: 402,
        body: { error: 'Payment was not successful. Please try again.', code: 'payment_failed' },
      },
    })
    renderApp(<Probe />)
    expect(await screen.findByLabelText('Balance')).toHaveTextContent('3')

    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }))
    expect(await screen.findByLabelText('Outcome')).toHaveTextContent('failed 402 payment_failed: Payment was not successful. Please try again.')
    expect(await screen.findByText('Payment confirmation failed. Please contact support.')).toBeInTheDocument()
    expect(screen.queryByText(/credits added successfully/)).not.toBeInTheDocument()
    expect(screen.getByLabelText('Balance')).toHaveTextContent('3')
  })
})
