import { useId, useState, type FormEvent } from 'react'
import { toast } from 'sonner'
import { Modal } from '@/components/ui/Modal'
import { messageOf } from '@/api/client'
import { reportSetup } from '../api'
import { REPORT_DETAILS_MAX, REPORT_REASONS, type ReportReason } from '../logic'

/** 'Report Content': one of four reasons and optional details; resets on close. */
export function ReportDialog({ setupId, onClose }: { setupId: number | null; onClose: () => void }) {
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
    if (setupId === null || !reason) return
    setPending(true)
    try {
      await reportSetup(setupId, reason, details.trim() || undefined)
      toast.success('Report submitted', { description: 'Thank you for helping keep our community safe.' })
      close()
    } catch (error) {
      toast.error('Failed to submit report.', { description: messageOf(error, 'An unknown error occurred.') })
    } finally {
      setPending(false)
    }
  }
  return (
    <Modal open={setupId !== null} onOpenChange={(open) => !open && close()} title="Report Content" description="Why are you reporting this setup?" dismissible={!pending}>
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
