import type { RigpageEditorForm } from '../useRigpageEditor'
import { EditorCard } from './EditorCard'
import { SectionsEditor } from './SectionsEditor'

type SectionsSectionProps = { form: Pick<RigpageEditorForm, 'draft' | 'errors' | 'addSection' | 'renameSection' | 'removeSection'> }

/** The editor's "Sections" card: the names links can be grouped under. */
export function SectionsSection({ form: { draft, errors, addSection, renameSection, removeSection } }: SectionsSectionProps) {
  return (
    <EditorCard id="rp-sections" title="Sections">
      <SectionsEditor sections={draft.sections} errors={errors.sections} onAdd={addSection} onRename={renameSection} onRemove={removeSection} />
    </EditorCard>
  )
}
