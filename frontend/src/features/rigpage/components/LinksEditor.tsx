import {
  DndContext, KeyboardSensor, PointerSensor, TouchSensor, closestCenter, useSensor, useSensors,
  type Announcements, type DragEndEvent, type UniqueIdentifier,
} from '@dnd-kit/core'
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable'
import { CSS } from '@dnd-kit/utilities'
import type { FocusEvent, FormEvent } from 'react'
import type { FieldErrors, UseFormReturn } from 'react-hook-form'
import { Field } from '@/components/ui/Field'
import { LABEL_MAX, MAX_LINKS, withScheme, type Draft, type DraftLink } from '../draft'
import type { NewLink } from '../schemas'
import { SelectField, SwitchRow } from './Controls'
import { ImageUpload } from './ImageUpload'

interface LinksEditorProps {
  links: DraftLink[]
  /** Saved links the server's daily check found dead. */
  deadLinkIds: readonly number[]
  sections: string[]
  errors: FieldErrors<Draft>['links']
  /** The "Add a link" form; the editor owns it, as a paid link joins only after the credit dialog. */
  newLink: UseFormReturn<NewLink>
  /** A hint on what the next link costs. */
  allowance: string
  adding: boolean
  onAdd: (event: FormEvent) => Promise<void>
  onChange: <K extends keyof DraftLink>(index: number, field: K, value: DraftLink[K]) => void
  onRemove: (index: number) => void
  onMove: (from: number, to: number) => void
}

const NO_SECTION = ''

/**
 * The links: label, URL, optional section and image, on/off, remove; reordered by
 * dragging the handle (mouse, touch after a short press, or the keyboard: Space, the
 * arrow keys, Space).
 */
export function LinksEditor({ links, deadLinkIds, sections, errors, newLink, allowance, adding, onAdd, onChange, onRemove, onMove }: LinksEditorProps) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 8 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 200, tolerance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  )
  const keys = links.map((link) => link.key)
  const nameOf = (id: UniqueIdentifier) => {
    const index = keys.indexOf(String(id))
    const label = links[index]?.label.trim()
    return `link ${index + 1}${label ? ` (${label})` : ''}`
  }
  const positionOf = (id: UniqueIdentifier | undefined) => (id === undefined ? 0 : keys.indexOf(String(id)) + 1)
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${nameOf(active.id)}.`,
    onDragOver: ({ active, over }) => (over ? `${nameOf(active.id)} is now at position ${positionOf(over.id)} of ${keys.length}.` : undefined),
    onDragEnd: ({ active, over }) => (over ? `${nameOf(active.id)} dropped at position ${positionOf(over.id)} of ${keys.length}.` : `${nameOf(active.id)} dropped.`),
    onDragCancel: ({ active }) => `Moving ${nameOf(active.id)} was cancelled.`,
  }

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return
    const from = keys.indexOf(String(active.id))
    const to = keys.indexOf(String(over.id))
    if (from >= 0 && to >= 0) onMove(from, to)
  }

  const newLinkErrors = newLink.formState.errors
  const addScheme = (event: FocusEvent<HTMLInputElement>) => {
    if (withScheme(event.target.value) !== event.target.value) newLink.setValue('url', withScheme(event.target.value))
  }

  const sectionOptions = [{ value: NO_SECTION, label: 'No section' }, ...sections.map((name) => ({ value: name, label: name }))]

  return (
    <div className="stack">
      {links.length === 0 ? (
        <p className="hint">No links yet. The preview shows sample links until you add some.</p>
      ) : (
        <DndContext
          sensors={sensors}
          collisionDetection={closestCenter}
          onDragEnd={onDragEnd}
          accessibility={{
            announcements,
            screenReaderInstructions: { draggable: 'To reorder a link, press Space to pick it up, the up and down arrow keys to move it, Space to drop it, or Escape to cancel.' },
          }}
        >
          <SortableContext items={keys} strategy={verticalListSortingStrategy}>
            <ol className="plain-list stack rp-links" aria-label="Your links">
              {links.map((link, index) => (
                <LinkRow
                  key={link.key}
                  link={link}
                  dead={link.id !== null && deadLinkIds.includes(link.id)}
                  index={index}
                  sectionOptions={sectionOptions}
                  errors={errors?.[index]}
                  onChange={(field, value) => onChange(index, field, value)}
                  onRemove={() => onRemove(index)}
                />
              ))}
            </ol>
          </SortableContext>
        </DndContext>
      )}

      <form className="card rp-new-link stack" onSubmit={(event) => void onAdd(event)} noValidate aria-labelledby="rp-new-link-title">
        <h3 id="rp-new-link-title" className="rp-subtitle">Add a link</h3>
        <div className="grid grid-2 rp-new-link-fields">
          <Field label="New link label" maxLength={LABEL_MAX} placeholder="e.g. My Keyboard" error={newLinkErrors.label?.message} {...newLink.register('label')} />
          <Field label="New link URL" type="url" inputMode="url" placeholder="https://" error={newLinkErrors.url?.message} {...newLink.register('url', { onBlur: addScheme })} />
        </div>
        <div className="row rp-new-link-actions">
          <button type="submit" className="btn btn-secondary" disabled={adding || links.length >= MAX_LINKS}>
            {adding ? 'Adding...' : 'Add Link'}
          </button>
          <p className="hint" data-testid="link-allowance">{allowance}</p>
        </div>
      </form>
    </div>
  )
}

interface LinkRowProps {
  link: DraftLink
  dead: boolean
  index: number
  sectionOptions: { value: string; label: string }[]
  errors: FieldErrors<DraftLink> | undefined
  onChange: <K extends keyof DraftLink>(field: K, value: DraftLink[K]) => void
  onRemove: () => void
}

function LinkRow({ link, dead, index, sectionOptions, errors, onChange, onRemove }: LinkRowProps) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: link.key })
  const n = index + 1
  const name = link.label.trim() || `link ${n}`
  const error = (field: 'label' | 'url' | 'section' | 'imageUrl') => errors?.[field]?.message
  const section = link.section && sectionOptions.some((o) => o.value === link.section) ? link.section : NO_SECTION
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      className={isDragging ? 'card rp-link rp-link-dragging' : 'card rp-link'}
      data-testid="link-row"
    >
      <div className="rp-link-head">
        <button type="button" ref={setActivatorNodeRef} className="icon-btn rp-drag" {...attributes} {...listeners} aria-label={`Reorder ${name}`}>
          <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" fill="currentColor"><circle cx="9" cy="6" r="1.6" /><circle cx="15" cy="6" r="1.6" /><circle cx="9" cy="12" r="1.6" /><circle cx="15" cy="12" r="1.6" /><circle cx="9" cy="18" r="1.6" /><circle cx="15" cy="18" r="1.6" /></svg>
        </button>
        <strong className="rp-link-title">{n}. {link.label.trim() || 'Untitled link'}</strong>
        {dead && <span className="badge badge-danger">Not working</span>}
        <button type="button" className="btn btn-ghost btn-sm" onClick={onRemove} aria-label={`Remove ${name}`}>Remove</button>
      </div>
      {dead && <p className="rp-link-dead" role="note">Our daily check could not open this link twice in a row. Fix its address or remove it.</p>}
      <div className="grid grid-2">
        <Field label={<>Label<span className="sr-only"> of link {n}</span></>} value={link.label} maxLength={LABEL_MAX} error={error('label')} onChange={(event) => onChange('label', event.target.value)} />
        <Field label={<>URL<span className="sr-only"> of link {n}</span></>} type="url" inputMode="url" value={link.url} error={error('url')} onChange={(event) => onChange('url', event.target.value)} onBlur={(event) => withScheme(event.target.value) !== event.target.value && onChange('url', withScheme(event.target.value))} />
      </div>
      <div className="rp-link-extras">
        {sectionOptions.length > 1 && (
          <SelectField
            label={<>Section<span className="sr-only"> of link {n}</span></>}
            value={section}
            options={sectionOptions}
            error={error('section')}
            onChange={(value) => onChange('section', value === NO_SECTION ? null : value)}
          />
        )}
        <div className="field">
          <span className="rp-field-label">Image<span className="sr-only"> of link {n}</span> (optional)</span>
          <div className="row">
            {link.imageUrl && <img src={link.imageUrl} alt="" className="rp-link-thumb" />}
            <ImageUpload
              kind="link"
              label={`Image of link ${n}`}
              buttonText={link.imageUrl ? 'Change Image' : 'Add Image'}
              failureMessage="Failed to upload image. Please try again."
              onUploaded={(url) => onChange('imageUrl', url)}
            />
            {link.imageUrl && (
              <button type="button" className="btn btn-ghost btn-sm" onClick={() => onChange('imageUrl', null)} aria-label={`Remove the image of link ${n}`}>
                Remove Image
              </button>
            )}
          </div>
          {error('imageUrl') && <p className="field-error" role="alert">{error('imageUrl')}</p>}
        </div>
      </div>
      <SwitchRow label={<>Show on page<span className="sr-only">: link {n}</span></>} checked={link.enabled} onChange={(enabled) => onChange('enabled', enabled)} />
    </li>
  )
}
