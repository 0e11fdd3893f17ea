import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import { useNavigate } from 'react-router-dom'
import useSWR from 'swr'
import { toast } from '@/lib/toast'
import { ApiError, messageOf } from '@/api/client'
import { PasswordField } from '@/components/ui/Field'
import { Modal } from '@/components/ui/Modal'
import { useAuth } from '@/lib/auth'
import { useServerErrors } from '@/lib/useServerErrors'
import { plural } from '@/lib/plural'
import { deleteAccount, fetchMembership, MEMBERSHIP_KEY } from '../api'
import { deleteAccountSchema, type DeleteAccountValues } from '../schemas'

const LONG_DATE = new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric' })

/**
 * Confirms and performs account deletion (spec 000 §2 and §8). The current password
 * confirms it, so a browser someone else left signed in cannot delete the account.
 */
export function DeleteAccountDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { clearSession, user } = useAuth()
  // What money bought goes too: the paid Pro period left (not refunded) and the credits.
  const { data: membership } = useSWR(open && user?.isPro ? MEMBERSHIP_KEY : null, fetchMembership)
  const sub = membership?.subscription
  const paidUntil = sub?.status === 'active' && sub.currentPeriodEnd && new Date(sub.currentPeriodEnd) > new Date() ? sub.currentPeriodEnd : null
  const navigate = useNavigate()
  const form = useForm<DeleteAccountValues>({
    resolver: zodResolver(deleteAccountSchema),
    mode: 'onTouched',
    defaultValues: { currentPassword: '' },
  })
  const { register, handleSubmit, formState, reset } = form
  const showServerError = useServerErrors(form)
  const serverError = formState.errors.root?.server?.message
  const pending = formState.isSubmitting

  const onSubmit = handleSubmit(async (values) => {
    try {
      await deleteAccount(values)
      await clearSession()
      onOpenChange(false)
      toast.success('Account deleted successfully')
      navigate('/')
    } catch (error) {
      // A wrong password shows under its field; a throttle or an outage above the form.
      const wrongPassword = error instanceof ApiError && error.issues.find((i) => i.path === 'currentPassword')
      if (wrongPassword) showServerError('currentPassword', wrongPassword.message)
      else showServerError('root.server', messageOf(error, 'Failed to delete account. Please try again.'))
    }
  })

  const onOpen = (next: boolean) => {
    if (!next) reset()
    onOpenChange(next)
  }

  return (
    <Modal open={open} onOpenChange={onOpen} dismissible={!pending} title="Delete Account" description="This cannot be undone. The following will be permanently deleted:">
      <ul className="muted">
        <li>Your profile and account information</li>
        <li>All your setup analyses</li>
        <li>Your community posts and uploads</li>
        <li>Your RigPage and custom links</li>
        {paidUntil && <li>Your Pro subscription: it ends now, and the paid time until {LONG_DATE.format(new Date(paidUntil))} is not refunded</li>}
        {!paidUntil && user?.isPro && <li>Your Pro membership</li>}
        {user && user.credits > 0 && <li>Your {plural(user.credits, 'remaining credit')}, which are not refunded</li>}
        <li>All associated data</li>
      </ul>
      <form className="stack" onSubmit={onSubmit} noValidate aria-label="Delete account">
        {serverError && <div className="form-error" role="alert">{serverError}</div>}
        <PasswordField label="Current password" autoComplete="current-password" hint="Enter your password to confirm it is you."
          error={formState.errors.currentPassword?.message} {...register('currentPassword')} />
        <div className="dialog-actions">
          <button type="button" className="btn btn-secondary" onClick={() => onOpen(false)} disabled={pending}>Cancel</button>
          <button type="submit" className="btn btn-danger" disabled={pending}>
            {pending ? 'Deleting...' : 'Delete My Account'}
          </button>
        </div>
      </form>
    </Modal>
  )
}
