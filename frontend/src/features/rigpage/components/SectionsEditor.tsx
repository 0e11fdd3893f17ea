import type { FieldErrors } from 'react-hook-form'
import { Field } from '@/components/ui/Field'
import { MAX_SECTIONS, SECTION_MAX, type Draft, type DraftSection } from '../draft'

interface SectionsEditorProps {
  sections: DraftSection[]
  errors: FieldErrors<Draft>['sections']
  onAdd: () => void
  onRename: (key: string, name: string) => void
  onRemove: (key: string) => void
}

/** Free-text section names that links can be grouped under. */
export function SectionsEditor({ sections, errors, onAdd, onRename, onRemove }: SectionsEditorProps) {
  return (
    <div className="stack">
      {sections.length === 0 && <p className="hint">No sections yet: links show as one list.</p>}
      <ol className="plain-list stack rp-sections">
        {sections.map((section, index) => (
          <li key={section.key} className="rp-section-row">
            <Field
              label={`Section ${index + 1} name`}
              value={section.name}
              maxLength={SECTION_MAX}
              placeholder="e.g. My Gear"
              error={errors?.[index]?.message}
              onChange={(event) => onRename(section.key, event.target.value)}
            />
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => onRemove(section.key)} aria-label={`Remove section ${index + 1}${section.name.trim() ? `: ${section.name.trim()}` : ''}`}>
              Remove
            </button>
          </li>
        ))}
      </ol>
      <button type="button" className="btn btn-secondary btn-sm rp-add" onClick={onAdd} disabled={sections.length >= MAX_SECTIONS}>
        Add Section
      </button>
    </div>
  )
}
