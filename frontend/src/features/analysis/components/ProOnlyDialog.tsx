import { Link } from 'react-router-dom'
import { Modal } from '@/components/ui/Modal'

export const PRO_ONLY_PDF = 'PDF export is available for Pro users only.'

/** Shown instead of the print window when a member without Pro asks for a PDF (spec 000 §6). */
export function ProOnlyDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Pro Feature" description={PRO_ONLY_PDF}>
      <div className="dialog-actions">
        <button type="button" className="btn btn-ghost" onClick={() => onOpenChange(false)}>Maybe Later</button>
        <Link to="/#pricing" className="btn btn-primary" onClick={() => onOpenChange(false)}>Upgrade to Pro</Link>
      </div>
    </Modal>
  )
}
