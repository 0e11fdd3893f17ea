import { CONSENT_KEY, consentDescription, readConsent, writeConsent } from './cookieConsent'

describe('cookie consent storage', () => {
  beforeEach(() => localStorage.clear())

  it('is unset until a choice is stored under the product key', () => {
    expect(readConsent()).toBeNull()
    expect(writeConsent('accepted')).toBe(true)
    expect(localStorage.getItem(CONSENT_KEY)).toBe('accepted')
    expect(readConsent()).toBe('accepted')
    writeConsent('declined')
    expect(readConsent()).toBe('declined')
  })

  it('ignores unknown stored values', () => {
    localStorage.setItem(CONSENT_KEY, 'maybe')
    expect(readConsent()).toBeNull()
  })

  it('warns and reports failure when storage is unavailable', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const broken = { setItem: () => { throw new Error('quota') } } as unknown as Storage
    expect(writeConsent('accepted', broken)).toBe(false)
    expect(warn).toHaveBeenCalled()
    warn.mockRestore()
  })

  it('describes each state', () => {
    expect(consentDescription('accepted')).toBe('You have accepted all cookies.')
    expect(consentDescription('declined')).toBe('You have declined optional cookies.')
    expect(consentDescription(null)).toBe('You have not set your preferences yet.')
  })
})
