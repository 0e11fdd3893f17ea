import { useId, useState, type FormEvent } from 'react'
import { toast } from 'sonner'
import { Modal } from '@/components/ui/Modal'
import { messageOf } from '@/api/client'
import { reportComment, reportSetup } from '../api'
import { REPORT_DETAILS_MAX, REPORT_REASONS, type ReportReason } from '../logic'

/** What is reported: a setup or a comment under one. */
export type ReportTarget = { setupId: number } | { commentId: number }

/** 'Report Content': one of four reasons and optional details; resets on close. */
export function ReportDialog({ target, onClose }: { target: ReportTarget | null; onClose: () => void }) {
  const id = useId()
  const [reason, setReason] = useState<ReportReason | null>(null)
  const [details, setDetails] = useState('')
  const [pending, setPending] = useState(false)
  const close = () => {
    setReason(null)
    setDetails('')
    onClose()
  }
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (target === null || !reason) return
    setPending(true)
    try {
      const extra = details.trim() || undefined
      await ('commentId' in target ? reportComment(target.commentId, reason, extra) : reportSetup(target.setupId, reason, extra))
      toast.success('Report submitted', { description: 'Thank you for helping keep our community safe.' })
      close()
    } catch (error) {
      toast.error('Failed to submit report.', { description: messageOf(error, 'An unknown error occurred.') })
    } finally {
      setPending(false)
    }
  }
  return (
    <Modal
      open={target !== null}
      onOpenChange={(open) => !open && close()}
      title="Report Content"
      description={target !== null && 'commentId' in target ? 'Why are you reporting this comment?' : 'Why are you reporting this setup?'}
      dismissible={!pending}
    >
      <form className="stack" onSubmit={submit}>
        <fieldset className="stack">
          <legend className="sr-only">Reason</legend>
          {REPORT_REASONS.map((r) => (
            <label key={r.value} className="row radio-row">
              <input type="radio" name={`${id}-reason`} value={r.value} checked={reason === r.value} onChange={() => setReason(r.value)} />
              {r.label}
            </label>
          ))}
        </fieldset>
        <div className="field">
          <label htmlFor={`${id}-details`}>Additional details (optional)</label>
          <textarea
            id={`${id}-details`}
            className="textarea"
            maxLength={REPORT_DETAILS_MAX}
            value={details}
            onChange={(e) => setDetails(e.target.value)}
          />
          <span className="hint">{details.length}/{REPORT_DETAILS_MAX}</span>
        </div>
        <div className="row dialog-actions">
          <button type="button" className="btn btn-secondary" onClick={close} disabled={pending}>Cancel</button>
          <button type="submit" className="btn btn-danger" disabled={!reason || pending}>{pending ? 'Submitting...' : 'Submit Report'}</button>
        </div>
      </form>
    </Modal>
  )
}
