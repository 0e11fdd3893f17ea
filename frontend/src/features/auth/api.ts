import { api, unwrap, type Schemas, type User } from '@/api/client'

export async function login(body: Schemas['LoginRequest']): Promise<User> {
  return unwrap(await api.POST('/_api/auth/login_with_password', { body }), 'Login failed. Please try again.').user
}

export async function register(body: Schemas['RegisterRequest']): Promise<User> {
  return unwrap(await api.POST('/_api/auth/register_with_password', { body }), 'Registration failed. Please try again.').user
}

export async function forgotPassword(body: Schemas['ForgotPasswordRequest']) {
  return unwrap(await api.POST('/_api/auth/forgot-password', { body }), 'Something went wrong. Please try again.')
}

export async function deleteAccount() {
  return unwrap(await api.POST('/_api/auth/delete-account', { body: {} }), 'Failed to delete account. Please try again.')
}

export async function updateProfile(body: Schemas['UpdateProfileRequest']): Promise<User> {
  return unwrap(await api.POST('/_api/auth/update-profile', { body }), 'Failed to update profile.').user
}

export async function uploadProfilePicture(imageData: string): Promise<User> {
  return unwrap(await api.POST('/_api/auth/upload-profile-picture', { body: { imageData } }), 'Failed to upload profile picture.').user
}

export async function verifyResetToken(resetToken: string) {
  return unwrap(await api.POST('/_api/auth/verify-reset-token', { body: { resetToken } }), 'Token verification failed')
}

export async function resetPassword(body: Schemas['ResetPasswordRequest']) {
  return unwrap(await api.POST('/_api/auth/reset-password', { body }), 'Password reset failed')
}
