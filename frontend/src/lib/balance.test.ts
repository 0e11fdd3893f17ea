import { balanceLabel } from './balance'

it('counts credits, and tells Pro members their analyses are unlimited', () => {
  expect(balanceLabel({ isPro: false, credits: 1 })).toBe('1 Credit')
  expect(balanceLabel({ isPro: false, credits: 10 })).toBe('10 Credits')
  expect(balanceLabel({ isPro: true, credits: 10 })).toBe('Pro · unlimited analyses')
})
