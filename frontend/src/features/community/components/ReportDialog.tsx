import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import { toast } from '@/lib/toast'
import { ApiError, messageOf } from '@/api/client'
import { TextAreaField } from '@/components/ui/Field'
import { Modal } from '@/components/ui/Modal'
import { useServerErrors } from '@/lib/useServerErrors'
import { reportComment, reportSetup } from '../api'
import { REPORT_DETAILS_MAX, REPORT_REASONS } from '../logic'
import { reportSchema, type ReportValues } from '../schemas'

/** What is reported: a setup or a comment under one. */
export type ReportTarget = { setupId: number } | { commentId: number }

/**
 * 'Report Content': one of the reasons and details (optional, but what 'Other' is); resets on close. A report the
 * server forbids (an unverified address) says why inside the dialog, as the comment box
 * does, and the dialog stays open; any other failure is the specification's toast.
 */
export function ReportDialog({ target, onClose, onReported }: { target: ReportTarget | null; onClose: () => void; onReported?: () => void }) {
  const form = useForm<ReportValues>({
    resolver: zodResolver(reportSchema),
    // No reason until one is picked: the schema refuses the empty value.
    defaultValues: { reason: undefined, details: '' },
  })
  const { register, handleSubmit, formState, reset, watch } = form
  const showServerError = useServerErrors(form)
  const refusal = formState.errors.root?.server?.message
  const pending = formState.isSubmitting
  const chosen = watch('reason')
  const details = watch('details')
  const close = () => {
    reset()
    onClose()
  }
  const submit = handleSubmit(async ({ reason, details }) => {
    if (target === null) return
    try {
      const extra = details || undefined
      await ('commentId' in target ? reportComment(target.commentId, reason, extra) : reportSetup(target.setupId, reason, extra))
      toast.success('Report submitted', { description: 'Thank you for helping keep our community safe.' })
      close()
      onReported?.()
    } catch (error) {
      if (error instanceof ApiError && error.status === 403) showServerError('root.server', error.message)
      else toast.error('Failed to submit report.', { description: messageOf(error, 'An unknown error occurred.') })
    }
  })
  return (
    <Modal
      open={target !== null}
      onOpenChange={(open) => !open && close()}
      title="Report Content"
      description={target !== null && 'commentId' in target ? 'Why are you reporting this comment?' : 'Why are you reporting this setup?'}
      dismissible={!pending}
    >
      <form className="stack" onSubmit={submit} noValidate>
        <fieldset className="stack plain-fieldset">
          <legend className="sr-only">Reason</legend>
          {REPORT_REASONS.map((r) => (
            <label key={r.value} className="row radio-row">
              <input type="radio" value={r.value} {...register('reason')} />
              {r.label}
            </label>
          ))}
        </fieldset>
        <TextAreaField
          label={chosen === 'other' ? 'What is wrong? (required)' : 'Additional details (optional)'}
          maxLength={REPORT_DETAILS_MAX}
          hint={`${details.length}/${REPORT_DETAILS_MAX}`}
          error={formState.errors.details?.message}
          {...register('details')}
        />
        {refusal && <p className="form-error" role="alert">{refusal}</p>}
        <div className="row dialog-actions">
          <button type="button" className="btn btn-secondary" onClick={close} disabled={pending}>Cancel</button>
          <button type="submit" className="btn btn-danger" disabled={!chosen || pending}>{pending ? 'Submitting...' : 'Submit Report'}</button>
        </div>
      </form>
    </Modal>
  )
}
