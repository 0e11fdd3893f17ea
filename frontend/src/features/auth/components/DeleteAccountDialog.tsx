import { useState } from 'react'
import { useNavigate } from 'react-router-dom'
import { toast } from 'sonner'
import { messageOf } from '@/api/client'
import { Modal } from '@/components/ui/Modal'
import { useAuth } from '@/app/auth'
import { deleteAccount } from '../api'

/** Confirms and performs account deletion (spec 000 §2 and §8). */
export function DeleteAccountDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { clearSession } = useAuth()
  const navigate = useNavigate()
  const [pending, setPending] = useState(false)

  const confirm = async () => {
    setPending(true)
    try {
      await deleteAccount()
      await clearSession()
      onOpenChange(false)
      toast.success('Account deleted successfully')
      navigate('/')
    } catch (error) {
      toast.error(messageOf(error, 'Failed to delete account. Please try again.'))
    } finally {
      setPending(false)
    }
  }

  return (
    <Modal open={open} onOpenChange={onOpenChange} dismissible={!pending} title="Delete Account" description="This cannot be undone. The following will be permanently deleted:">
      <ul className="muted">
        <li>Your profile and account information</li>
        <li>All your setup analyses</li>
        <li>Your community posts and uploads</li>
        <li>Your RigPage and custom links</li>
        <li>All associated data</li>
      </ul>
      <div className="dialog-actions">
        <button type="button" className="btn btn-secondary" onClick={() => onOpenChange(false)} disabled={pending}>Cancel</button>
        <button type="button" className="btn btn-danger" onClick={confirm} disabled={pending}>
          {pending ? 'Deleting...' : 'Delete My Account'}
        </button>
      </div>
    </Modal>
  )
}
