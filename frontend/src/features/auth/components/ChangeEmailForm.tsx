import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import { toast } from '@/lib/toast'
import { ApiError, messageOf } from '@/api/client'
import { Field, PasswordField } from '@/components/ui/Field'
import { useServerErrors } from '@/lib/useServerErrors'
import { changeEmail } from '../api'
import { changeEmailSchema, type ChangeEmailValues } from '../schemas'

const FIELDS = ['newEmail', 'currentPassword'] as const
const isField = (path: string): path is (typeof FIELDS)[number] => (FIELDS as readonly string[]).includes(path)

/**
 * Moves the account to another address: the current password proves it is the member, a
 * link mailed to the new address proves it is theirs. Nothing changes until that link is
 * opened; the old address is told then.
 */
export function ChangeEmailForm({ onDone }: { onDone: () => void }) {
  const form = useForm<ChangeEmailValues>({
    resolver: zodResolver(changeEmailSchema),
    mode: 'onTouched',
    defaultValues: { newEmail: '', currentPassword: '' },
  })
  const { register, handleSubmit, formState } = form
  const showServerError = useServerErrors(form)
  const serverError = formState.errors.root?.server?.message

  const onSubmit = handleSubmit(async (values) => {
    try {
      toast.success(await changeEmail(values), { duration: 10_000 })
      onDone()
    } catch (error) {
      // A wrong password or a taken address shows under its field; the rest above the form.
      const issue = error instanceof ApiError ? error.issues.find((i) => isField(i.path)) : undefined
      if (issue && isField(issue.path)) showServerError(issue.path, issue.message)
      else if (error instanceof ApiError && error.status === 409) showServerError('newEmail', error.message)
      else showServerError('root.server', messageOf(error, 'Failed to change your e-mail address. Please try again.'))
    }
  })

  return (
    <form className="stack" onSubmit={onSubmit} noValidate aria-label="Change e-mail address">
      {serverError && <div className="form-error" role="alert">{serverError}</div>}
      <Field label="New e-mail address" type="email" autoComplete="email" autoFocus hint="We will send a link there. Your address changes when you open it."
        error={formState.errors.newEmail?.message} {...register('newEmail')} />
      <PasswordField label="Current password" autoComplete="current-password" error={formState.errors.currentPassword?.message} {...register('currentPassword')} />
      <div className="row">
        <button type="submit" className="btn btn-primary btn-sm" disabled={formState.isSubmitting}>
          {formState.isSubmitting ? 'Sending...' : 'Send Link'}
        </button>
        <button type="button" className="btn btn-secondary btn-sm" onClick={onDone} disabled={formState.isSubmitting}>Cancel</button>
      </div>
    </form>
  )
}
