import { Modal } from '@/components/ui/Modal'
import type { CommunitySetup } from '../api'

const DELETE_SETUP_CONFIRM = 'Are you sure you want to delete this setup? This action cannot be undone.'

interface DeleteSetupDialogProps {
  /** The setup to delete; null keeps the dialog closed. */
  setup: CommunitySetup | null
  pending: boolean
  onConfirm: (setup: CommunitySetup) => void
  onCancel: () => void
}

/** 'Delete Setup': the owner confirms first (spec §6); nothing closes it while the request runs. */
export function DeleteSetupDialog({ setup, pending, onConfirm, onCancel }: DeleteSetupDialogProps) {
  return (
    <Modal open={setup !== null} onOpenChange={(open) => !open && onCancel()} title="Delete Setup" description={DELETE_SETUP_CONFIRM} dismissible={!pending}>
      <div className="dialog-actions">
        <button type="button" className="btn btn-secondary" onClick={onCancel} disabled={pending}>Cancel</button>
        <button type="button" className="btn btn-danger" onClick={() => setup && onConfirm(setup)} disabled={pending}>
          {pending ? 'Deleting...' : 'Delete'}
        </button>
      </div>
    </Modal>
  )
}
