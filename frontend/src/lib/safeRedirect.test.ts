import { safeRedirect } from './safeRedirect'

describe('safeRedirect', () => {
  it.each(['/profile', '/rig/pixel?x=1#top', '/'])('keeps same-site path %s', (path) => {
    expect(safeRedirect(path)).toBe(path)
  })

  it.each([
    null,
    '',
    'profile',
    '//evil.example/x',
    '/\\evil.example',
    'https://evil.example',
    'javascript:alert(1)',
    '/%0d%0aSet-Cookie:x',
    '/\tfoo',
  ])('refuses %s', (target) => {
    const result = safeRedirect(target)
    expect(result.startsWith('/')).toBe(true)
    expect(result.startsWith('//')).toBe(false)
    expect(new URL(result, 'http://same.invalid').origin).toBe('http://same.invalid')
  })

  it('falls back to the given path', () => {
    expect(safeRedirect('//evil', '/home')).toBe('/home')
  })
})
