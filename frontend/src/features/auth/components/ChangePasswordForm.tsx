import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import { useSWRConfig } from 'swr'
import { toast } from '@/lib/toast'
import { ApiError, messageOf } from '@/api/client'
import { PasswordField } from '@/components/ui/Field'
import { useServerErrors } from '@/lib/useServerErrors'
import { changePassword, SESSIONS_KEY } from '../api'
import { changePasswordSchema, type ChangePasswordValues } from '../schemas'

const FIELDS = ['currentPassword', 'newPassword'] as const
const isField = (path: string): path is (typeof FIELDS)[number] => (FIELDS as readonly string[]).includes(path)

/**
 * The signed-in member's new password, with the current one as proof. This browser stays
 * signed in; every other one is signed out, and an e-mail tells the account's address.
 */
export function ChangePasswordForm() {
  const form = useForm<ChangePasswordValues>({
    resolver: zodResolver(changePasswordSchema),
    mode: 'onTouched',
    defaultValues: { currentPassword: '', newPassword: '' },
  })
  const { register, handleSubmit, formState, reset } = form
  const showServerError = useServerErrors(form)
  const serverError = formState.errors.root?.server?.message
  const { mutate } = useSWRConfig()

  const onSubmit = handleSubmit(async (values) => {
    try {
      toast.success(await changePassword(values))
      reset()
      // The other devices were signed out: the list of signed-in devices beside this form
      // reads them again instead of showing them until a reload.
      void mutate(SESSIONS_KEY)
    } catch (error) {
      // A wrong current password shows under that field; a throttle or an outage above the form.
      const issue = error instanceof ApiError ? error.issues.find((i) => isField(i.path)) : undefined
      if (issue && isField(issue.path)) showServerError(issue.path, issue.message)
      else showServerError('root.server', messageOf(error, 'Failed to change your password. Please try again.'))
    }
  })

  return (
    <form className="stack" onSubmit={onSubmit} noValidate aria-label="Change password">
      {serverError && <div className="form-error" role="alert">{serverError}</div>}
      <PasswordField label="Current password" autoComplete="current-password" error={formState.errors.currentPassword?.message} {...register('currentPassword')} />
      <PasswordField label="New password" autoComplete="new-password" hint="At least 8 characters. Your other devices will be signed out." error={formState.errors.newPassword?.message} {...register('newPassword')} />
      <div className="row">
        <button type="submit" className="btn btn-primary" disabled={formState.isSubmitting}>
          {formState.isSubmitting ? 'Changing...' : 'Change Password'}
        </button>
      </div>
    </form>
  )
}
