import { zodResolver } from '@hookform/resolvers/zod'
import { useEffect, useState } from 'react'
import { useForm } from 'react-hook-form'
import { toast } from '@/lib/toast'
import { Field, TextAreaField } from '@/components/ui/Field'
import { Modal } from '@/components/ui/Modal'
import { ApiError } from '@/api/client'
import { useServerErrors } from '@/lib/useServerErrors'
import { editSetup, fetchOwnGear, saveGear, useMyAnalyses, type CommunitySetup } from '../api'
import { checkGear, rowsOf, suggestGear, type GearRow } from '../gear'
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
  // The stored gear (with its links), or what the analysis saw when the post has none.
  const [gearRows, setGearRows] = useState<GearRow[] | null>(null)
  const [gearError, setGearError] = useState<{ message: string; index: number } | null>(null)
  const { data: analyses } = useMyAnalyses(true)
  const analysis = analyses?.analyses.find((a) => a.id === setup.analysis?.id)
  useEffect(() => {
    let live = true
    fetchOwnGear(setup.id)
      .then(({ items }) => {
        if (live && items.length > 0) setGearRows((rows) => rows ?? rowsOf(items))
      })
      .catch(() => undefined)
    return () => {
      live = false
    }
  }, [setup.id])
  const gear = gearRows ?? (setup.gear.length === 0 && analysis ? suggestGear(analysis) : [])

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
      // Sent once the stored list has loaded or the owner touched the rows: an untouched
      // offer from the analysis changes nothing, and a list not loaded yet is never wiped.
      if (gearRows !== null) await saveGear(setup.id, checked.items)
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
