import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import { messageOf } from '@/api/client'
import { Field, PasswordField } from '@/components/ui/Field'
import { useAuth } from '@/lib/auth'
import { useServerErrors } from '@/lib/useServerErrors'
import { login } from '../api'
import { loginSchema, type LoginValues } from '../schemas'

export function LoginForm({ onDone, onForgot }: { onDone: () => void; onForgot?: () => void }) {
  const { signIn } = useAuth()
  const form = useForm<LoginValues>({ resolver: zodResolver(loginSchema), mode: 'onTouched', defaultValues: { email: '', password: '' } })
  const { register, handleSubmit, formState } = form
  // Shown above the form (spec 000 §8 "Login") until the next edit or submit.
  const showServerError = useServerErrors(form)
  const serverError = formState.errors.root?.server?.message

  const onSubmit = handleSubmit(async (values) => {
    try {
      const { user, claimedAnalysisId } = await login(values)
      signIn(user, claimedAnalysisId)
      onDone()
    } catch (error) {
      showServerError('root.server', messageOf(error, 'Login failed'))
    }
  })

  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      {serverError && <div className="form-error" role="alert">{serverError}</div>}
      <Field label="Email" type="email" autoComplete="email" error={formState.errors.email?.message} {...register('email')} />
      <PasswordField label="Password" autoComplete="current-password" error={formState.errors.password?.message} {...register('password')} />
      {onForgot && (
        <button type="button" className="btn btn-ghost btn-sm" style={{ alignSelf: 'flex-end' }} onClick={onForgot}>
          Forgot Password?
        </button>
      )}
      <button type="submit" className="btn btn-primary btn-block" disabled={formState.isSubmitting}>
        {formState.isSubmitting ? 'Logging in...' : 'Log In'}
      </button>
    </form>
  )
}
