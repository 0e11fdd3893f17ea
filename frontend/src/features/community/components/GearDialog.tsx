import { useState, type FormEvent } from 'react'
import { toast } from '@/lib/toast'
import { Modal } from '@/components/ui/Modal'
import { ApiError } from '@/api/client'
import { saveGear, type CommunitySetup } from '../api'
import { checkGear } from '../gear'
import { useOwnGear } from '../useOwnGear'
import { GearEditor } from './GearEditor'

/**
 * 'Edit Your Gear': the gear of a post whose edit window has closed. The photos and words
 * stay as published, but a link the check found dead can still be fixed or dropped, and a
 * new piece of gear added, whenever the owner likes.
 */
export function GearDialog({ setup, onClose, onSaved }: { setup: CommunitySetup; onClose: () => void; onSaved: () => void }) {
  const { gear, touched, setGearRows } = useOwnGear(setup)
  const [pending, setPending] = useState(false)
  const [gearError, setGearError] = useState<{ message: string; index: number } | null>(null)

  const save = async (event: FormEvent) => {
    event.preventDefault()
    const checked = checkGear(gear)
    if ('error' in checked) {
      setGearError({ message: checked.error, index: checked.index })
      return
    }
    if (!touched) {
      onClose()
      return
    }
    setPending(true)
    try {
      await saveGear(setup.id, checked.items)
      toast.success('Gear saved.')
      onSaved()
      onClose()
    } catch (error) {
      const message = error instanceof ApiError ? (error.issues[0]?.message ?? error.message) : undefined
      toast.error('Failed to save the gear.', message ? { description: message } : undefined)
    } finally {
      setPending(false)
    }
  }

  return (
    <Modal open onOpenChange={(open) => !open && !pending && onClose()} title="Edit Your Gear" wide dismissible={!pending}>
      <form className="stack" onSubmit={(event) => void save(event)} noValidate>
        <GearEditor rows={gear} onChange={(rows) => { setGearRows(rows); setGearError(null) }} disabled={pending} error={gearError} />
        <div className="row dialog-actions">
          <button type="button" className="btn btn-secondary" onClick={onClose} disabled={pending}>Cancel</button>
          <button type="submit" className="btn btn-primary" disabled={pending}>{pending ? 'Saving...' : 'Save Gear'}</button>
        </div>
      </form>
    </Modal>
  )
}
