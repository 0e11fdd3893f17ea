import { screen } from '@testing-library/react'
import { Route, Routes } from 'react-router-dom'
import { PaymentHistory } from '@/features/credits/components/PaymentHistory'
import { mockServer, renderApp, signedIn, siteReply, unsetLegal } from '@/test-utils'
import Receipt from './Receipt'

afterEach(() => vi.unstubAllGlobals())

const PAID = {
  reference: 'pi_test_1',
  description: 'Popular Pack (25 credits)',
  packageId: 'popular',
  credits: 25,
  amountCents: 999,
  currency: 'usd',
  provider: 'test',
  status: 'succeeded',
  createdAt: '2026-03-14T09:00:00Z',
  paidAt: '2026-03-14T09:01:00Z',
}
const DECLINED = { ...PAID, reference: 'pi_test_2', description: 'Value Pack (100 credits)', amountCents: 1999, status: 'requires_payment_method', paidAt: null }

function renderReceipt(reference: string) {
  return renderApp(
    <Routes><Route path="/receipts/:reference" element={<Receipt />} /></Routes>,
    { route: `/receipts/${reference}` },
  )
}

describe('Payments and receipts', () => {
  it('lists every payment, a receipt for the paid ones only', async () => {
    mockServer({ 'GET /_api/auth/session': signedIn(), 'GET /_api/credits/payments': { status: 200, body: { payments: [DECLINED, PAID] } } })
    renderApp(<PaymentHistory />)
    const rows = await screen.findAllByRole('row')
    expect(rows).toHaveLength(3)
    expect(rows[1]).toHaveTextContent('Value Pack (100 credits)$19.99Not paid')
    expect(rows[2]).toHaveTextContent('Popular Pack (25 credits)$9.99Paid (test mode)')
    expect(screen.getAllByRole('link')).toHaveLength(1)
    expect(screen.getByRole('link', { name: 'Receipt for Popular Pack (25 credits)' })).toHaveAttribute('href', '/receipts/pi_test_1')
  })

  it('prints a paid payment with the seller, the buyer and the amount', async () => {
    const legal = { ...unsetLegal, operator: 'Rig Labs GmbH', address: ['Hauptstr. 1', '10115 Berlin'], vatId: 'DE123456789' }
    mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/site': siteReply({ legal }),
      'GET /_api/credits/payments/pi_test_1': { status: 200, body: PAID },
    })
    renderReceipt('pi_test_1')
    expect(await screen.findByTestId('receipt-number')).toHaveTextContent('pi_test_1')
    expect(screen.getByText('Popular Pack (25 credits)')).toBeInTheDocument()
    expect(screen.getByText('$9.99')).toBeInTheDocument()
    expect(screen.getByText('Pixel Pete (pete@example.com)')).toBeInTheDocument()
    expect(await screen.findByText(/Rig Labs GmbH/)).toHaveTextContent('Rig Labs GmbHHauptstr. 110115 BerlinVAT ID DE123456789')
    expect(screen.getByText('Test mode: no card was charged')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Print' })).toBeInTheDocument()
    // The card sits inside the page's margins, not as the full-width page itself.
    const card = screen.getByRole('article', { name: 'Receipt' })
    expect(card).not.toHaveClass('container')
    expect(card.parentElement).toHaveClass('container')
  })

  it('says so when the receipt is not the member\'s', async () => {
    mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/site': siteReply(),
      'GET /_api/credits/payments/pi_other': { status: 404, body: { error: 'Payment not found.', code: 'not_found' } },
    })
    renderReceipt('pi_other')
    expect(await screen.findByRole('heading', { name: 'Receipt Not Found' })).toBeInTheDocument()
  })
})
