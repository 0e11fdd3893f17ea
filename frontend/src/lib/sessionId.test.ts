import { SESSION_ID_KEY, sessionId } from './sessionId'

describe('sessionId', () => {
  beforeEach(() => sessionStorage.clear())

  it('is generated once and then kept for the session', () => {
    const first = sessionId()
    expect(first).toMatch(/\S{8,}/)
    expect(sessionStorage.getItem(SESSION_ID_KEY)).toBe(first)
    expect(sessionId()).toBe(first)
  })

  it('reuses an existing id', () => {
    sessionStorage.setItem(SESSION_ID_KEY, 'abc-123')
    expect(sessionId()).toBe('abc-123')
  })

  it('still answers when storage fails', () => {
    const broken = {
      getItem: () => {
        throw new Error('denied')
      },
      setItem: () => undefined,
    }
    expect(sessionId(broken)).toMatch(/\S{8,}/)
  })
})
