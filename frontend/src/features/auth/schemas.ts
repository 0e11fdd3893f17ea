import { z } from 'zod'
import { ApiError, type Schemas } from '@/api/client'

/** The forms' rules, with the specification's messages (spec 000 §5, spec 001 §5). */
export const loginSchema = z
  .object({
    email: z.email('Email is required'),
    password: z.string().min(1, 'Password is required'),
  })
  .strict() satisfies z.ZodType<Schemas['LoginRequest']>

export const registerSchema = z
  .object({
    displayName: z.string().trim().min(1, 'Name is required'),
    email: z.email('Email is required'),
    password: z.string().min(8, 'Password must be at least 8 characters'),
  })
  .strict() satisfies z.ZodType<Schemas['RegisterRequest']>

export const forgotPasswordSchema = z
  .object({ email: z.email('Please enter a valid email address.') })
  .strict() satisfies z.ZodType<Schemas['ForgotPasswordRequest']>

export const usernameSchema = z
  .object({
    username: z
      .string()
      .min(3, 'Username must be at least 3 characters long.')
      .max(50, 'Username cannot be longer than 50 characters.')
      .regex(/^[A-Za-z0-9_]+$/, 'Username can only contain letters, numbers, and underscores.'),
  })
  .strict() satisfies z.ZodType<Schemas['UpdateProfileRequest']>

export const displayNameSchema = z
  .object({
    displayName: z.string().trim().min(1, 'Name is required').max(100, 'Name cannot be longer than 100 characters.'),
  })
  .strict() satisfies z.ZodType<Schemas['UpdateDisplayNameRequest']>

export const resetPasswordSchema = z
  .object({
    resetToken: z.string().min(1, 'Reset token is required.'),
    newPassword: z.string().min(8, 'Password must be at least 8 characters long.'),
    confirmPassword: z.string().min(1, 'Please confirm your password.'),
  })
  .strict()
  .refine((v) => v.newPassword === v.confirmPassword, { message: "Passwords don't match", path: ['confirmPassword'] })

/** The server checks the same rules, and that the current password is right and differs. */
export const changePasswordSchema = z
  .object({
    currentPassword: z.string().min(1, 'Please enter your current password.'),
    newPassword: z.string().min(8, 'Password must be at least 8 characters long.').max(256, 'Password cannot be longer than 256 characters.'),
  })
  .strict()
  .refine((v) => v.newPassword !== v.currentPassword || v.newPassword === '', {
    message: 'Your new password must be different from your current one.',
    path: ['newPassword'],
  }) satisfies z.ZodType<Schemas['ChangePasswordRequest']>

/** Moving to another address: the server checks the password, and that no account has the address. */
export const changeEmailSchema = z
  .object({
    newEmail: z.email('Please enter a valid email address.').max(254, 'Email cannot be longer than 254 characters.'),
    currentPassword: z.string().min(1, 'Please enter your current password.').max(256, 'Password cannot be longer than 256 characters.'),
  })
  .strict() satisfies z.ZodType<Schemas['ChangeEmailRequest']>

/** Deleting the account: the server checks that the password is the account's. */
export const deleteAccountSchema = z
  .object({
    currentPassword: z.string().min(1, 'Please enter your current password.').max(256, 'Password cannot be longer than 256 characters.'),
  })
  .strict() satisfies z.ZodType<Schemas['DeleteAccountRequest']>

export type LoginValues = z.infer<typeof loginSchema>
export type DeleteAccountValues = z.infer<typeof deleteAccountSchema>
export type ChangeEmailValues = z.infer<typeof changeEmailSchema>
export type ChangePasswordValues = z.infer<typeof changePasswordSchema>
export type RegisterValues = z.infer<typeof registerSchema>
export type ForgotPasswordValues = z.infer<typeof forgotPasswordSchema>
export type UsernameValues = z.infer<typeof usernameSchema>
export type ResetPasswordValues = z.infer<typeof resetPasswordSchema>

/** Maps a registration failure to what the form shows (spec 000 §8): an e-mail already in use by the server's code, the rest by its message. */
export function registerErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.code === 'email_taken') return 'This email is already registered. Please try logging in instead.'
  const message = error instanceof Error ? error.message : undefined
  if (!message) return 'Registration failed. Please try again.'
  if (/display ?name/i.test(message)) return "Please provide a valid display name that isn't empty."
  if (/display|name/i.test(message)) return `Please check your display name: ${message}`
  return message
}
