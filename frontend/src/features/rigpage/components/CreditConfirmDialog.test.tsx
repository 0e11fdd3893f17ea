import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { mockServer, renderApp, signedIn } from '@/test-utils'
import { CreditConfirmDialog, type PaidAction } from './CreditConfirmDialog'

afterEach(() => vi.unstubAllGlobals())

function show(action: PaidAction, balance: number, cost = 1, handlers: { onConfirm?: () => void; onCancel?: () => void } = {}) {
  mockServer({ 'GET /_api/auth/session': signedIn() })
  renderApp(
    <CreditConfirmDialog
      open
      action={action}
      cost={cost}
      balance={balance}
      freeLinks={5}
      linksPerBatch={10}
      pending={false}
      onConfirm={handlers.onConfirm ?? (() => undefined)}
      onCancel={handlers.onCancel ?? (() => undefined)}
    />,
  )
}

describe('CreditConfirmDialog', () => {
  it('asks to pay 1 credit (singular) to go live', async () => {
    const onConfirm = vi.fn()
    show('publish', 3, 1, { onConfirm })
    const dialog = await screen.findByRole('dialog', { name: 'Go Live?' })
    expect(within(dialog).getByText(/Publishing your RigPage costs 1 credit\./)).toBeInTheDocument()
    expect(within(dialog).getByTestId('credit-cost')).toHaveTextContent(/^1 credit$/)
    expect(within(dialog).getByTestId('credit-balance')).toHaveTextContent(/^3 credits$/)
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Go Live for 1 credit' }))
    expect(onConfirm).toHaveBeenCalledOnce()
  })

  it('explains the link batch', async () => {
    show('link', 1)
    const dialog = await screen.findByRole('dialog', { name: 'Unlock More Links?' })
    expect(within(dialog).getByText('Your first 5 links are free. This link starts a new batch of 10 links for 1 credit.')).toBeInTheDocument()
    expect(within(dialog).getByTestId('credit-balance')).toHaveTextContent(/^1 credit$/)
    expect(within(dialog).getByRole('button', { name: 'Add Link for 1 credit' })).toBeEnabled()
  })

  it('uses the plural for other amounts', async () => {
    show('publish', 5, 2)
    const dialog = await screen.findByRole('dialog', { name: 'Go Live?' })
    expect(within(dialog).getByTestId('credit-cost')).toHaveTextContent(/^2 credits$/)
    expect(within(dialog).getByRole('button', { name: 'Go Live for 2 credits' })).toBeEnabled()
  })

  it('disables confirm and offers credits when the balance is short', async () => {
    const onConfirm = vi.fn()
    show('link', 0, 1, { onConfirm })
    const dialog = await screen.findByRole('dialog', { name: 'Unlock More Links?' })
    expect(within(dialog).getByRole('alert')).toHaveTextContent("⚠️ You don't have enough credits. Purchase more credits to continue.")
    expect(within(dialog).getByRole('link', { name: 'Buy Credits' })).toHaveAttribute('href', '/buy-credits')
    const confirm = within(dialog).getByRole('button', { name: 'Add Link for 1 credit' })
    expect(confirm).toBeDisabled()
    await userEvent.click(confirm)
    expect(onConfirm).not.toHaveBeenCalled()
  })

  it('cancels on Escape', async () => {
    const onCancel = vi.fn()
    show('publish', 3, 1, { onCancel })
    await screen.findByRole('dialog', { name: 'Go Live?' })
    await userEvent.keyboard('{Escape}')
    expect(onCancel).toHaveBeenCalled()
  })
})
