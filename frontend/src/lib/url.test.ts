import { isHttpUrl } from './url'

describe('isHttpUrl', () => {
  it('accepts only http and https URLs with a host', () => {
    expect(isHttpUrl('https://example.com/x')).toBe(true)
    expect(isHttpUrl('http://example.com')).toBe(true)
    expect(isHttpUrl('javascript:alert(1)')).toBe(false)
    expect(isHttpUrl('ftp://example.com')).toBe(false)
    expect(isHttpUrl('example.com')).toBe(false)
    expect(isHttpUrl('https://exa mple.com')).toBe(false)
    expect(isHttpUrl(`https://example.com/${'a'.repeat(2048)}`)).toBe(false)
  })
})
