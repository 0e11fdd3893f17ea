import { DndContext, closestCenter, MouseSensor, TouchSensor, KeyboardSensor, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core'
import { SortableContext, rectSortingStrategy, sortableKeyboardCoordinates, useSortable } from '@dnd-kit/sortable'
import { CSS } from '@dnd-kit/utilities'
import { useId, useRef, useState, type ChangeEvent } from 'react'
import { X } from 'lucide-react'
import { downscaleToJpegDataUrl } from '@/lib/imageDownscale'
import { checkNewImages, moveItem } from '../logic'

export interface Photo {
  key: string
  /** An existing URL or a new data URL. */
  src: string
}

let counter = 0
export const photoKey = () => `photo-${++counter}`

function SortablePhoto({ photo, index, onRemove, disabled }: { photo: Photo; index: number; onRemove: () => void; disabled?: boolean }) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({ id: photo.key, disabled: disabled ?? false })
  return (
    <li
      ref={setNodeRef}
      className={`cm-photo${isDragging ? ' rp-link-dragging' : ''}`}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      data-testid="photo-item"
    >
      <img src={photo.src} alt={`Photo ${index + 1}`} {...attributes} {...listeners} aria-roledescription="sortable" />
      <button type="button" className="icon-btn cm-photo-remove" aria-label={`Remove photo ${index + 1}`} onClick={onRemove} disabled={disabled}>
        <X aria-hidden="true" />
      </button>
    </li>
  )
}

interface PhotoListProps {
  photos: Photo[]
  onChange: (photos: Photo[]) => void
  max: number
  disabled?: boolean
  label: string
}

/** Photos to drag into order, remove, or add (JPEG, PNG or WEBP, at most 5 MB each, downscaled). */
export function PhotoList({ photos, onChange, max, disabled, label }: PhotoListProps) {
  const id = useId()
  const input = useRef<HTMLInputElement>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const sensors = useSensors(
    useSensor(MouseSensor, { activationConstraint: { distance: 8 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 200, tolerance: 8 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  )
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return
    const from = photos.findIndex((p) => p.key === active.id)
    const to = photos.findIndex((p) => p.key === over.id)
    if (from >= 0 && to >= 0) onChange(moveItem(photos, from, to))
  }
  const onFiles = async (event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.target.files ?? [])
    event.target.value = ''
    if (files.length === 0) return
    const checked = checkNewImages(files, photos.length, max)
    setError(checked.error)
    if (checked.error) return
    setBusy(true)
    try {
      const added = await Promise.all(checked.files.map((f) => downscaleToJpegDataUrl(f, 1920, 1080, 0.9)))
      onChange([...photos, ...added.map((src) => ({ key: photoKey(), src }))])
    } catch {
      setError('Could not read the image.')
    } finally {
      setBusy(false)
    }
  }
  return (
    <div className="stack">
      <span className="hint">{label} ({photos.length}/{max})</span>
      {photos.length > 0 && (
        <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
          <SortableContext items={photos.map((p) => p.key)} strategy={rectSortingStrategy}>
            <ul className="plain-list cm-photos">
              {photos.map((photo, i) => (
                <SortablePhoto key={photo.key} photo={photo} index={i} disabled={disabled} onRemove={() => onChange(photos.filter((p) => p.key !== photo.key))} />
              ))}
            </ul>
          </SortableContext>
        </DndContext>
      )}
      <label htmlFor={id} className="sr-only">Add photos</label>
      <input ref={input} id={id} type="file" multiple accept="image/jpeg,image/png,image/webp" className="sr-only" tabIndex={-1} onChange={onFiles} disabled={disabled || busy} data-testid="photo-input" />
      <button type="button" className="btn btn-secondary btn-sm" onClick={() => input.current?.click()} disabled={disabled || busy || photos.length >= max}>
        {busy ? 'Adding...' : 'Add Photos'}
      </button>
      {error && <p className="field-error" role="alert">{error}</p>}
    </div>
  )
}
