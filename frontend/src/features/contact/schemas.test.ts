import { contactSchema } from './schemas'

function firstMessage(result: { success: boolean; error?: { issues: { message: string }[] } }) {
  return result.success ? null : result.error?.issues[0]?.message
}

describe('contact schema', () => {
  const ok = { name: 'Pixel Pete', email: 'gamer@example.com', message: 'My score did not update.' }

  it('accepts a valid message and trims every field', () => {
    const result = contactSchema.safeParse({ name: '  Al  ', email: ' a@b.co ', message: '  ten chars!  ' })
    expect(result.success).toBe(true)
    expect(result.data).toEqual({ name: 'Al', email: 'a@b.co', message: 'ten chars!' })
  })

  it('name', () => {
    expect(firstMessage(contactSchema.safeParse({ ...ok, name: 'A' }))).toBe('Name must be at least 2 characters.')
    expect(firstMessage(contactSchema.safeParse({ ...ok, name: '  A  ' }))).toBe('Name must be at least 2 characters.')
    expect(firstMessage(contactSchema.safeParse({ ...ok, name: 'x'.repeat(101) }))).toBe('Name cannot be longer than 100 characters.')
  })

  it('email', () => {
    expect(firstMessage(contactSchema.safeParse({ ...ok, email: '' }))).toBe('Please enter a valid email address.')
    expect(firstMessage(contactSchema.safeParse({ ...ok, email: 'not-an-email' }))).toBe('Please enter a valid email address.')
    expect(firstMessage(contactSchema.safeParse({ ...ok, email: `${'a'.repeat(250)}@b.co` }))).toBe('Email cannot be longer than 254 characters.')
  })

  it('message', () => {
    expect(firstMessage(contactSchema.safeParse({ ...ok, message: 'too short' }))).toBe('Message must be at least 10 characters.')
    expect(firstMessage(contactSchema.safeParse({ ...ok, message: '   short    ' }))).toBe('Message must be at least 10 characters.')
    expect(firstMessage(contactSchema.safeParse({ ...ok, message: 'y'.repeat(5001) }))).toBe('Message cannot be longer than 5000 characters.')
  })

  it('reports each invalid field on its own path and rejects unknown fields', () => {
    const result = contactSchema.safeParse({ name: '', email: 'x', message: '' })
    expect(result.error?.issues.map((i) => [i.path, i.message])).toEqual([
      [['name'], 'Name must be at least 2 characters.'],
      [['email'], 'Please enter a valid email address.'],
      [['message'], 'Message must be at least 10 characters.'],
    ])
    expect(contactSchema.safeParse({ ...ok, subject: 'hi' }).success).toBe(false)
  })
})
