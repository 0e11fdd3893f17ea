import { zodResolver } from '@hookform/resolvers/zod'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { toast } from '@/lib/toast'
import { Field, TextAreaField } from '@/components/ui/Field'
import { Modal } from '@/components/ui/Modal'
import { ApiError } from '@/api/client'
import { useServerErrors } from '@/lib/useServerErrors'
import { editSetup, saveGear, type CommunitySetup } from '../api'
import { checkGear } from '../gear'
import { useOwnGear } from '../useOwnGear'
import { GearEditor } from './GearEditor'
import { DESCRIPTION_MAX, MAX_IMAGES, TITLE_MAX } from '../logic'
import { postWordsSchema, type PostWordsValues } from '../schemas'
import { PhotoList, photoKey, type Photo } from './PhotoList'

export interface EditValues {
  setupId: number
  images: string[]
  title: string
  description: string
}

/** 'Edit Your Setup': keep, reorder, remove or add photos; change the words. */
export function EditDialog({ setup, onClose, onSave }: { setup: CommunitySetup; onClose: () => void; onSave: (values: EditValues) => Promise<void> }) {
  const [photos, setPhotos] = useState<Photo[]>(() => setup.images.map((src) => ({ key: photoKey(), src })))
  const form = useForm<PostWordsValues>({
    resolver: zodResolver(postWordsSchema),
    defaultValues: { title: setup.title ?? '', description: setup.description ?? '' },
  })
  const { register, handleSubmit, formState } = form
  const showServerError = useServerErrors(form)
  const pending = formState.isSubmitting
  const [photoError, setPhotoError] = useState<string | null>(null)
  const { gear, touched: gearTouched, setGearRows } = useOwnGear(setup)
  const [gearError, setGearError] = useState<{ message: string; index: number } | null>(null)

  const save = handleSubmit(async ({ title, description }) => {
    if (photos.length === 0) {
      setPhotoError('At least 1 image is required.')
      return
    }
    setPhotoError(null)
    const checked = checkGear(gear)
    if ('error' in checked) {
      setGearError({ message: checked.error, index: checked.index })
      return
    }
    setGearError(null)
    try {
      await onSave({ setupId: setup.id, images: photos.map((p) => p.src), title, description })
      if (gearTouched) await saveGear(setup.id, checked.items)
      toast.success('Setup updated successfully.')
      onClose()
    } catch (error) {
      const message = error instanceof ApiError ? (error.issues[0]?.message ?? error.message) : undefined
      toast.error('Failed to update setup.', message ? { description: message } : undefined)
      if (message) showServerError('root.server', message)
    }
  })
  const formError = photoError ?? formState.errors.root?.server?.message

  return (
    <Modal open onOpenChange={(open) => !open && !pending && onClose()} title="Edit Your Setup" wide dismissible={!pending}>
      <form className="stack" onSubmit={save} noValidate>
        <PhotoList photos={photos} onChange={setPhotos} max={MAX_IMAGES} disabled={pending} label="Photos (drag to reorder)" />
        <Field label="Title" maxLength={TITLE_MAX} disabled={pending} error={formState.errors.title?.message} {...register('title')} />
        <TextAreaField label="Description" maxLength={DESCRIPTION_MAX} disabled={pending} error={formState.errors.description?.message} {...register('description')} />
        <GearEditor rows={gear} onChange={(rows) => { setGearRows(rows); setGearError(null) }} disabled={pending} error={gearError} />
        {formError && <p className="form-error" role="alert">{formError}</p>}
        <div className="row dialog-actions">
          <button type="button" className="btn btn-secondary" onClick={onClose} disabled={pending}>Cancel</button>
          <button type="submit" className="btn btn-primary" disabled={pending}>{pending ? 'Saving...' : 'Save Changes'}</button>
        </div>
      </form>
    </Modal>
  )
}

export { editSetup }
