import { zodResolver } from '@hookform/resolvers/zod'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { Link, useNavigate, useSearchParams } from 'react-router-dom'
import { toast } from '@/lib/toast'
import useSWR from 'swr'
import { Ban, CircleCheck, Link2Off } from 'lucide-react'
import { messageOf } from '@/api/client'
import { PasswordField } from '@/components/ui/Field'
import { Skeleton } from '@/components/ui/Skeleton'
import { StateMessage } from '@/components/ui/StateMessage'
import { resetPassword, verifyResetToken } from '@/features/auth/api'
import { useAuth } from '@/lib/auth'
import { resetPasswordSchema, type ResetPasswordValues } from '@/features/auth/schemas'
import { useServerErrors } from '@/lib/useServerErrors'
import { usePageTitle } from '@/lib/usePageTitle'

/** /reset-password?token=…: verifying, then the form, invalid, missing or done. */
export default function ResetPassword() {
  usePageTitle('Reset Password')
  const [params] = useSearchParams()
  const token = params.get('token')
  const [done, setDone] = useState(false)
  const navigate = useNavigate()
  // The verification is cached for 5 minutes and not retried.
  const verification = useSWR(token ? ['verify-reset-token', token] : null, () => verifyResetToken(token ?? ''), {
    dedupingInterval: 5 * 60_000,
    shouldRetryOnError: false,
    revalidateOnFocus: false,
    revalidateIfStale: false,
  })

  if (!token) {
    return (
      <StateMessage icon={Link2Off} title="Reset Password" text="No reset token found. Please request a new password reset link.">
        <Link to="/" className="btn btn-primary">Go Homepage</Link>
      </StateMessage>
    )
  }
  if (done) {
    return (
      <StateMessage icon={CircleCheck} title="Password Reset!" text="Your password has been changed successfully. You can now log in with your new password.">
        <button type="button" className="btn btn-primary" onClick={() => navigate('/')}>Back to Login</button>
      </StateMessage>
    )
  }
  if (verification.isLoading) {
    return (
      <div className="container page-narrow stack" aria-busy="true">
        <h1 style={{ fontSize: '1.8rem' }}>Verifying Link</h1>
        <Skeleton height={44} />
        <Skeleton height={44} />
        <Skeleton height={44} width="40%" />
      </div>
    )
  }
  if (verification.error || !verification.data?.valid) {
    return (
      <StateMessage icon={Ban} title="Invalid Link" text="This password reset link is invalid or has expired. Please try again.">
        <Link to="/" className="btn btn-primary">Go Homepage</Link>
      </StateMessage>
    )
  }
  return <ResetForm token={token} email={verification.data.email} onDone={() => setDone(true)} />
}

function ResetForm({ token, email, onDone }: { token: string; email: string; onDone: () => void }) {
  const { clearSession } = useAuth()
  const form = useForm<ResetPasswordValues>({
    resolver: zodResolver(resetPasswordSchema),
    mode: 'onTouched',
    defaultValues: { resetToken: token, newPassword: '', confirmPassword: '' },
  })
  const { register, handleSubmit, formState } = form
  // Under the new password until either password field is edited.
  const showServerError = useServerErrors(form)

  const onSubmit = handleSubmit(async (values) => {
    try {
      await resetPassword(values)
      // Every session of the account has ended on the server.
      await clearSession()
      toast.success('Password reset successfully!')
      onDone()
    } catch (error) {
      showServerError('newPassword', messageOf(error, 'An unknown error occurred.'))
    }
  })

  return (
    <div className="container page-narrow" style={{ maxWidth: 480 }}>
      <form className="card stack" onSubmit={onSubmit} noValidate>
        <h1 style={{ fontSize: '1.8rem' }}>Choose a new password</h1>
        <p className="muted">For <strong data-testid="reset-email">{email}</strong></p>
        <input type="hidden" {...register('resetToken')} />
        <PasswordField label="New Password" autoComplete="new-password" error={formState.errors.newPassword?.message} {...register('newPassword')} />
        <PasswordField label="Confirm New Password" autoComplete="new-password" error={formState.errors.confirmPassword?.message} {...register('confirmPassword')} />
        <button type="submit" className="btn btn-primary btn-block" disabled={formState.isSubmitting}>
          {formState.isSubmitting ? 'Resetting...' : 'Reset Password'}
        </button>
      </form>
    </div>
  )
}
