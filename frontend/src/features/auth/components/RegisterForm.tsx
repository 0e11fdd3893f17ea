import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import { toast } from '@/lib/toast'
import { Field, PasswordField } from '@/components/ui/Field'
import { ApiError } from '@/api/client'
import { useAuth } from '@/lib/auth'
import { plural } from '@/lib/plural'
import { useServerErrors } from '@/lib/useServerErrors'
import { NO_SIGNUP_BONUS, register as registerAccount } from '../api'
import { registerErrorMessage, registerSchema, type RegisterValues } from '../schemas'

export function RegisterForm({ onDone }: { onDone: () => void }) {
  const { signIn } = useAuth()
  const form = useForm<RegisterValues>({
    resolver: zodResolver(registerSchema),
    mode: 'onTouched',
    defaultValues: { displayName: '', email: '', password: '' },
  })
  const { register, handleSubmit, formState } = form
  // Shown above the form until the next edit or submit.
  const showServerError = useServerErrors(form)
  const serverError = formState.errors.root?.server?.message

  const onSubmit = handleSubmit(async (values) => {
    try {
      const { user, signupBonus, claimedAnalysisId } = await registerAccount(values)
      signIn(user, claimedAnalysisId)
      if (signupBonus > 0) {
        toast.success(`Welcome to SetupIQ, ${user.displayName}!`, { description: `You have ${plural(user.credits, 'free credit')}.` })
      } else {
        toast.info(`Welcome to SetupIQ, ${user.displayName}!`, { description: NO_SIGNUP_BONUS, duration: 12000 })
      }
      onDone()
    } catch (error) {
      // A password the server refuses (too common) shows under its field, as a short one does.
      const password = error instanceof ApiError ? error.issues.find((i) => i.path === 'password') : undefined
      if (password) showServerError('password', password.message)
      else showServerError('root.server', registerErrorMessage(error))
    }
  })

  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      {serverError && <div className="form-error" role="alert">{serverError}</div>}
      <Field label="Display Name" autoComplete="name" error={formState.errors.displayName?.message} {...register('displayName')} />
      <Field label="Email" type="email" autoComplete="email" error={formState.errors.email?.message} {...register('email')} />
      <PasswordField
        label="Password"
        autoComplete="new-password"
        hint="At least 8 characters; mix uppercase, lowercase and a number for a stronger password."
        error={formState.errors.password?.message}
        {...register('password')}
      />
      <button type="submit" className="btn btn-primary btn-block" disabled={formState.isSubmitting}>
        {formState.isSubmitting ? 'Creating account...' : 'Create Account (+3 free credits)'}
      </button>
    </form>
  )
}
