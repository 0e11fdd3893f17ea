import { zodResolver } from '@hookform/resolvers/zod'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { messageOf } from '@/api/client'
import { Field, PasswordField } from '@/components/ui/Field'
import { useAuth } from '@/app/auth'
import { login } from '../api'
import { loginSchema, type LoginValues } from '../schemas'

export function LoginForm({ onDone, onForgot }: { onDone: () => void; onForgot?: () => void }) {
  const { setUser } = useAuth()
  const [serverError, setServerError] = useState<string | null>(null)
  const { register, handleSubmit, formState } = useForm<LoginValues>({ resolver: zodResolver(loginSchema), mode: 'onTouched', defaultValues: { email: '', password: '' } })

  const onSubmit = handleSubmit(async (values) => {
    setServerError(null)
    try {
      setUser(await login(values))
      onDone()
    } catch (error) {
      setServerError(messageOf(error, 'Login failed'))
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
