import { zodResolver } from '@hookform/resolvers/zod'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { messageOf } from '@/api/client'
import { Field } from '@/components/ui/Field'
import { useServerErrors } from '@/lib/useServerErrors'
import { forgotPassword } from '../api'
import { forgotPasswordSchema, type ForgotPasswordValues } from '../schemas'

export const RESET_REQUESTED =
  'If an account exists with that email, you will receive a password reset link shortly. Please check your inbox.'

export function ForgotPasswordForm({ onBack }: { onBack: () => void }) {
  const [sent, setSent] = useState(false)
  const form = useForm<ForgotPasswordValues>({
    resolver: zodResolver(forgotPasswordSchema),
    mode: 'onTouched',
    defaultValues: { email: '' },
  })
  const { register, handleSubmit, formState } = form
  // Under the email field (spec 000 §8 "Forgot password") until the next edit.
  const showServerError = useServerErrors(form)

  const onSubmit = handleSubmit(async (values) => {
    try {
      await forgotPassword(values)
      setSent(true)
    } catch (error) {
      showServerError('email', messageOf(error, 'Something went wrong. Please try again.'))
    }
  })

  if (sent) {
    return (
      <div className="stack">
        <div className="form-success" role="status">{RESET_REQUESTED}</div>
        <button type="button" className="btn btn-secondary btn-block" onClick={onBack}>Back to Login</button>
      </div>
    )
  }

  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      <Field label="Email" type="email" autoComplete="email" error={formState.errors.email?.message} {...register('email')} />
      <button type="submit" className="btn btn-primary btn-block" disabled={formState.isSubmitting}>
        {formState.isSubmitting ? 'Sending...' : 'Send Reset Link'}
      </button>
      <button type="button" className="btn btn-ghost btn-block" onClick={onBack}>Back to Login</button>
    </form>
  )
}
