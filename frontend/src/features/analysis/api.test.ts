import { ApiError } from '@/api/client'
import { needsCredits } from './api'

describe('needsCredits', () => {
  it.each(['insufficient_credits', 'trial_used'] as const)('hands the %s code to the credits dialog', (code) => {
    expect(needsCredits(new ApiError(402, 'Any wording at all.', [], code))).toBe(true)
  })

  it('goes by the code, not by the status or the wording', () => {
    expect(needsCredits(new ApiError(402, 'Your card was declined.', [], 'card_declined'))).toBe(false)
    expect(needsCredits(new ApiError(402, 'Payment was not successful. Please try again.', [], 'payment_failed'))).toBe(false)
    expect(needsCredits(new ApiError(402, 'Payment required.'))).toBe(false)
    expect(needsCredits(new ApiError(422, 'Buy more credits to see this trial.', [], 'unprocessable'))).toBe(false)
    expect(needsCredits(new Error('Insufficient credits'))).toBe(false)
    expect(needsCredits('trial used')).toBe(false)
  })
})
