import { screen, within } from '@testing-library/react'
import { mockServer, renderApp, signedIn } from '@/test-utils'
import { CreditHistory } from './CreditHistory'

afterEach(() => vi.unstubAllGlobals())

const entry = (id: number, reason: string, amount: number, balanceAfter: number) => ({
  id,
  reason,
  amount,
  balanceAfter,
  createdAt: `2026-03-${String(10 + id).padStart(2, '0')}T09:00:00Z`,
})

describe('CreditHistory', () => {
  it('names every ledger reason in words, never by its stored name', async () => {
    mockServer({
      'GET /_api/auth/session': signedIn(),
      'GET /_api/credits/history': {
        status: 200,
        body: {
          entries: [
            entry(8, 'mystery_refund', 2, 15),
            entry(7, 'spend:profile_boost', -1, 13),
            entry(6, 'rigpage_links', -1, 14),
            entry(5, 'rigpage_publish', -1, 15),
            entry(4, 'analysis', -1, 16),
            entry(3, 'purchase:starter', 10, 17),
            entry(2, 'ad_reward', 1, 7),
            entry(1, 'signup_bonus', 3, 6),
          ],
        },
      },
    })
    renderApp(<CreditHistory />)
    const table = await screen.findByRole('table')
    const activities = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row).getAllByRole('cell')[1]!.textContent)
    expect(activities).toEqual([
      'Mystery refund',
      'Spent: Profile boost',
      'RigPage links (10 more)',
      'RigPage published',
      'Setup analysis',
      'Purchase: Starter pack',
      'Rewarded ads',
      'Signup bonus',
    ])
    expect(table).not.toHaveTextContent('_')
    expect(within(table).getByText('+10')).toBeInTheDocument()
  })
})
