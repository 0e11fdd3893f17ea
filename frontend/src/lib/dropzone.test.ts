import { formatFileSize, SETUP_PHOTO_RULES, validateDropzoneFiles } from './dropzone'

const file = (name: string, type: string, size = 1000) => ({ name, type, size })
const MB = 1024 * 1024

describe('the setup photo dropzone', () => {
  it.each(['image/jpeg', 'image/png', 'image/webp'])('accepts one %s file', (type) => {
    const one = file('desk', type)
    expect(validateDropzoneFiles([one], SETUP_PHOTO_RULES)).toEqual({ files: [one], error: null })
  })

  it('accepts exactly 10MB', () => {
    expect(validateDropzoneFiles([file('big.jpg', 'image/jpeg', 10 * MB)], SETUP_PHOTO_RULES).error).toBeNull()
  })

  it('allows one file only', () => {
    const result = validateDropzoneFiles([file('a.jpg', 'image/jpeg'), file('b.jpg', 'image/jpeg')], SETUP_PHOTO_RULES)
    expect(result).toEqual({ files: [], error: 'Maximum 1 file(s) allowed' })
  })

  it.each(['image/gif', 'application/pdf', 'image/svg+xml', ''])('refuses %s files', (type) => {
    expect(validateDropzoneFiles([file('x', type)], SETUP_PHOTO_RULES).error).toBe(
      'Invalid file type. Accepted: image/jpeg, image/png, image/webp',
    )
  })

  it('refuses files over 10MB', () => {
    expect(validateDropzoneFiles([file('huge.png', 'image/png', 10 * MB + 1)], SETUP_PHOTO_RULES).error).toBe(
      'File size exceeds 10MB limit',
    )
  })

  it('uses the rules it is given', () => {
    expect(validateDropzoneFiles([file('a', 'image/png', 6 * MB)], { maxFiles: 5, accept: ['image/png'], maxBytes: 5 * MB }).error).toBe(
      'File size exceeds 5MB limit',
    )
    expect(validateDropzoneFiles([], SETUP_PHOTO_RULES)).toEqual({ files: [], error: null })
  })

  it('formats sizes', () => {
    expect(formatFileSize(300)).toBe('1 KB')
    expect(formatFileSize(512 * 1024)).toBe('512 KB')
    expect(formatFileSize(2.45 * MB)).toBe('2.5 MB')
  })
})
