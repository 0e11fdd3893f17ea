import { useId, useState } from 'react'
import { toast } from 'sonner'
import { Modal } from '@/components/ui/Modal'
import { ApiError } from '@/api/client'
import { editSetup, type CommunitySetup } from '../api'
import { DESCRIPTION_MAX, MAX_IMAGES, TITLE_MAX } from '../logic'
import { PhotoList, photoKey, type Photo } from './PhotoList'

export interface EditValues {
  setupId: number
  images: string[]
  title: string
  description: string
}

/** 'Edit Your Setup': keep, reorder, remove or add photos; change the words. */
export function EditDialog({ setup, onClose, onSave }: { setup: CommunitySetup; onClose: () => void; onSave: (values: EditValues) => Promise<void> }) {
  const id = useId()
  const [photos, setPhotos] = useState<Photo[]>(() => setup.images.map((src) => ({ key: photoKey(), src })))
  const [title, setTitle] = useState(setup.title ?? '')
  const [description, setDescription] = useState(setup.description ?? '')
  const [pending, setPending] = useState(false)
  const [formError, setFormError] = useState<string | null>(null)

  const save = async () => {
    if (photos.length === 0) {
      setFormError('At least 1 image is required.')
      return
    }
    setPending(true)
    setFormError(null)
    try {
      await onSave({ setupId: setup.id, images: photos.map((p) => p.src), title: title.trim(), description: description.trim() })
      toast.success('Setup updated successfully.')
      onClose()
    } catch (error) {
      const message = error instanceof ApiError ? (error.issues[0]?.message ?? error.message) : undefined
      toast.error('Failed to update setup.', message ? { description: message } : undefined)
      if (message) setFormError(message)
    } finally {
      setPending(false)
    }
  }

  return (
    <Modal open onOpenChange={(open) => !open && !pending && onClose()} title="Edit Your Setup" wide dismissible={!pending}>
      <div className="stack">
        <PhotoList photos={photos} onChange={setPhotos} max={MAX_IMAGES} disabled={pending} label="Photos (drag to reorder)" />
        <div className="field">
          <label htmlFor={`${id}-title`}>Title</label>
          <input id={`${id}-title`} className="input" maxLength={TITLE_MAX} value={title} onChange={(e) => setTitle(e.target.value)} disabled={pending} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-description`}>Description</label>
          <textarea id={`${id}-description`} className="textarea" maxLength={DESCRIPTION_MAX} value={description} onChange={(e) => setDescription(e.target.value)} disabled={pending} />
        </div>
        {formError && <p className="form-error" role="alert">{formError}</p>}
        <div className="row dialog-actions">
          <button type="button" className="btn btn-secondary" onClick={onClose} disabled={pending}>Cancel</button>
          <button type="button" className="btn btn-primary" onClick={() => void save()} disabled={pending}>{pending ? 'Saving...' : 'Save Changes'}</button>
        </div>
      </div>
    </Modal>
  )
}

export { editSetup }
