import { ApiError } from '@/api/client'
import { changePasswordSchema, displayNameSchema, forgotPasswordSchema, loginSchema, registerErrorMessage, registerSchema, resetPasswordSchema, usernameSchema } from './schemas'

function firstMessage(result: { success: boolean; error?: { issues: { message: string }[] } }) {
  return result.success ? null : result.error?.issues[0]?.message
}

describe('form schemas', () => {
  it('login', () => {
    expect(firstMessage(loginSchema.safeParse({ email: 'x', password: 'p' }))).toBe('Email is required')
    expect(firstMessage(loginSchema.safeParse({ email: 'a@b.co', password: '' }))).toBe('Password is required')
    expect(loginSchema.safeParse({ email: 'a@b.co', password: 'p' }).success).toBe(true)
    expect(loginSchema.safeParse({ email: 'a@b.co', password: 'p', extra: 1 }).success).toBe(false)
  })

  it('register', () => {
    const ok = { email: 'a@b.co', password: '12345678', displayName: 'Pixel 🎮 Pete!' }
    expect(registerSchema.safeParse(ok).success).toBe(true)
    expect(firstMessage(registerSchema.safeParse({ ...ok, password: '1234567' }))).toBe('Password must be at least 8 characters')
    expect(firstMessage(registerSchema.safeParse({ ...ok, displayName: '  ' }))).toBe('Name is required')
    expect(firstMessage(registerSchema.safeParse({ ...ok, email: '' }))).toBe('Email is required')
  })

  it('forgot password and username', () => {
    expect(firstMessage(forgotPasswordSchema.safeParse({ email: 'nope' }))).toBe('Please enter a valid email address.')
    expect(firstMessage(usernameSchema.safeParse({ username: 'ab' }))).toBe('Username must be at least 3 characters long.')
    expect(firstMessage(usernameSchema.safeParse({ username: 'a'.repeat(51) }))).toBe('Username cannot be longer than 50 characters.')
    expect(firstMessage(usernameSchema.safeParse({ username: 'no spaces' }))).toBe('Username can only contain letters, numbers, and underscores.')
    expect(usernameSchema.safeParse({ username: 'Rig_Master_3000' }).success).toBe(true)
  })

  it('display name: trimmed, 1 to 100 characters, anything goes', () => {
    expect(displayNameSchema.parse({ displayName: '  Rig Queen 👑 ' })).toEqual({ displayName: 'Rig Queen 👑' })
    expect(firstMessage(displayNameSchema.safeParse({ displayName: '   ' }))).toBe('Name is required')
    expect(firstMessage(displayNameSchema.safeParse({ displayName: 'x'.repeat(101) }))).toBe('Name cannot be longer than 100 characters.')
  })

  it('change password', () => {
    expect(changePasswordSchema.safeParse({ currentPassword: 'old', newPassword: 'longenough' }).success).toBe(true)
    expect(firstMessage(changePasswordSchema.safeParse({ currentPassword: '', newPassword: 'longenough' }))).toBe('Please enter your current password.')
    expect(firstMessage(changePasswordSchema.safeParse({ currentPassword: 'old', newPassword: 'short' }))).toBe('Password must be at least 8 characters long.')
    const same = changePasswordSchema.safeParse({ currentPassword: 'longenough', newPassword: 'longenough' })
    expect(firstMessage(same)).toBe('Your new password must be different from your current one.')
    expect(same.error?.issues[0]?.path).toEqual(['newPassword'])
  })

  it('reset password', () => {
    const base = { resetToken: 't', newPassword: 'longenough', confirmPassword: 'longenough' }
    expect(resetPasswordSchema.safeParse(base).success).toBe(true)
    expect(firstMessage(resetPasswordSchema.safeParse({ ...base, newPassword: 'short', confirmPassword: 'short' }))).toBe('Password must be at least 8 characters long.')
    expect(firstMessage(resetPasswordSchema.safeParse({ ...base, confirmPassword: '' }))).toBe('Please confirm your password.')
    const mismatch = resetPasswordSchema.safeParse({ ...base, confirmPassword: 'different' })
    expect(firstMessage(mismatch)).toBe("Passwords don't match")
    expect(mismatch.error?.issues[0]?.path).toEqual(['confirmPassword'])
  })

  it('maps registration errors as the specification says', () => {
    const taken = new ApiError(409, 'Email already in use', [], 'email_taken')
    expect(registerErrorMessage(taken)).toBe('This email is already registered. Please try logging in instead.')
    // The code decides, not the wording: a reworded server message still reads as "already registered".
    expect(registerErrorMessage(new ApiError(409, 'That address belongs to another account', [], 'email_taken'))).toBe('This email is already registered. Please try logging in instead.')
    expect(registerErrorMessage(new ApiError(409, 'This credit has already been applied.', [], 'conflict'))).toBe('This credit has already been applied.')
    expect(registerErrorMessage(new Error('Invalid display name'))).toBe("Please provide a valid display name that isn't empty.")
    expect(registerErrorMessage(new Error('Name is required'))).toBe('Please check your display name: Name is required')
    expect(registerErrorMessage(new Error('Password must be at least 8 characters'))).toBe('Password must be at least 8 characters')
    expect(registerErrorMessage(undefined)).toBe('Registration failed. Please try again.')
  })
})
