import { api, unwrap, type Schemas, type User } from '@/api/client'
import { plural } from '@/lib/plural'

/** Signs in; `claimedAnalysisId` is the analysis this browser's free result, made just before, became. */
export async function login(body: Schemas['LoginRequest']): Promise<Schemas['LoginResponse']> {
  return unwrap(await api.POST('/_api/auth/login_with_password', { body }), 'Login failed. Please try again.')
}

/**
 * Creates the account; `signupBonus` is the credits it started with (3, or 0 when its network had its share today),
 * `claimedAnalysisId` the analysis this browser's free result, made just before, became.
 */
export async function register(body: Schemas['RegisterRequest']): Promise<Schemas['RegisterResponse']> {
  return unwrap(await api.POST('/_api/auth/register_with_password', { body }), 'Registration failed. Please try again.')
}

/** Why a new account starts with no credits (the server's sign-up limits per network). */
export const NO_SIGNUP_BONUS =
  'Free sign-up credits go to a few new accounts per network each day, and yours has had them today, so you start with 0 credits. Watch a short ad or buy credits to analyze your setup.'

export async function forgotPassword(body: Schemas['ForgotPasswordRequest']) {
  return unwrap(await api.POST('/_api/auth/forgot-password', { body }), 'Something went wrong. Please try again.')
}

/** Deletes the account for good, once its current password confirms it is the owner. */
export async function deleteAccount(body: Schemas['DeleteAccountRequest']) {
  return unwrap(await api.POST('/_api/auth/delete-account', { body }), 'Failed to delete account. Please try again.')
}

/** The member's Pro membership (the Pro endpoint's answer), for what deleting the account ends. */
export const MEMBERSHIP_KEY = '/_api/pro'

export async function fetchMembership(): Promise<Schemas['ProResponse']> {
  return unwrap(await api.GET('/_api/pro'), 'Could not load Pro.')
}

/** Where the browser downloads everything the account holds, as a JSON file. */
export const EXPORT_URL = '/_api/account/export'

export type ActiveSession = Schemas['SessionDto']

/** The browsers and devices signed in to the account (the profile lists them). */
export const SESSIONS_KEY = '/_api/auth/sessions'

export async function fetchSessions(): Promise<ActiveSession[]> {
  return unwrap(await api.GET('/_api/auth/sessions'), 'Could not load your signed-in devices.').sessions
}

export async function updateProfile(body: Schemas['UpdateProfileRequest']): Promise<User> {
  return unwrap(await api.POST('/_api/auth/update-profile', { body }), 'Failed to update profile.').user
}

export async function updateDisplayName(body: Schemas['UpdateDisplayNameRequest']): Promise<User> {
  return unwrap(await api.POST('/_api/auth/update-display-name', { body }), 'Failed to update profile.').user
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

/** Changes the signed-in member's password; their other devices are signed out. Answers what to tell them. */
export async function changePassword(body: Schemas['ChangePasswordRequest']): Promise<string> {
  unwrap(await api.POST('/_api/auth/change-password', { body }), 'Failed to change your password. Please try again.')
  return 'Password changed. Your other devices were signed out.'
}

/** Mails a link to the new address; the account moves only when it is opened. Answers what to tell the member. */
export async function changeEmail(body: Schemas['ChangeEmailRequest']): Promise<string> {
  unwrap(await api.POST('/_api/auth/change-email', { body }), 'Failed to change your e-mail address. Please try again.')
  return `We sent a link to ${body.newEmail.toLowerCase()}. Your address changes when you open it.`
}

/** Signs the member out of every other browser and device; answers what to tell them. */
export async function signOutEverywhereElse(): Promise<string> {
  const { ended } = unwrap(await api.POST('/_api/auth/sessions/end-others', { body: {} }), 'Failed to sign out your other devices. Please try again.')
  return ended === 0 ? 'No other device was signed in.' : `Signed out of ${plural(ended, 'other device')}.`
}

/** Follows an e-mail verification link: the account whose address is now verified. */
/** Follows a verification link; the account comes back only when this browser is signed in as it. */
export async function verifyEmail(token: string): Promise<Schemas['VerifyEmailResponse']> {
  return unwrap(await api.POST('/_api/auth/verify-email', { body: { token } }), 'The e-mail address could not be verified. Please try again.')
}

/** E-mails the signed-in user a new verification link; answers what to tell them. */
export async function resendVerificationEmail(): Promise<string> {
  unwrap(await api.POST('/_api/auth/verify-email/resend', { body: {} }), 'The e-mail could not be sent. Please try again.')
  return 'We sent a new verification link. Please check your inbox.'
}
