import { ApiError } from '@/api/client'
import { errorFrom, isRefused, needsCredits } from './api'

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

describe('isRefused', () => {
  it('takes a 422 for an input the server will not rate', () => {
    expect(isRefused(errorFrom(422, JSON.stringify({ error: 'This looks like a screenshot or an illustration.', code: 'unprocessable' })))).toBe(true)
  })

  it('leaves failures that a retry may fix', () => {
    expect(isRefused(new ApiError(500, 'Internal error.', [], 'internal'))).toBe(false)
    expect(isRefused(new ApiError(503, 'Unavailable.', [], 'unavailable'))).toBe(false)
    expect(isRefused(new ApiError(0, 'An unexpected error occurred during analysis.'))).toBe(false)
    expect(isRefused(new ApiError(429, 'Too many analyses.', [], 'rate_limited'))).toBe(false)
    expect(isRefused(new Error('Unprocessable'))).toBe(false)
  })
})

describe('errorFrom (the analysis upload)', () => {
  it("keeps the server's message, such as a shared network's trial limit", () => {
    const limit = 'The free trial limit for your network has been reached today. Sign up to get 3 free credits.'
    const error = errorFrom(402, JSON.stringify({ error: limit, code: 'trial_used' }))
    expect(error.message).toBe(limit)
    expect(needsCredits(error)).toBe(true)
  })

  it('says the service is briefly unavailable for an HTML error page or a bare 5xx', () => {
    for (const [status, text] of [
      [502, '<html><body>502 Bad Gateway</body></html>'],
      [504, ''],
      [500, '{}'],
    ] as const) {
      const error = errorFrom(status, text)
      expect(error.message).toBe('The service is briefly unavailable. Please try again in a moment.')
      expect(error.status).toBe(status)
      expect(needsCredits(error)).toBe(false)
    }
  })

  it('falls back to the analysis message for a 4xx without one', () => {
    expect(errorFrom(400, '{}').message).toBe('An unknown error occurred during analysis.')
  })
})
