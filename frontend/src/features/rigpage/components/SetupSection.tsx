import type { RigpageEditorForm } from '../useRigpageEditor'
import { EditorCard } from './EditorCard'
import { SetupPicker } from './SetupPicker'

/** The editor's "Showcased Setup" card: which of the member's analysed setups the page shows. */
export function SetupSection({ form: { editor, draft, errors, set } }: { form: Pick<RigpageEditorForm, 'editor' | 'draft' | 'errors' | 'set'> }) {
  return (
    <EditorCard id="rp-setup" title="Showcased Setup">
      <SetupPicker setups={editor.setups} value={draft.rigpageSetupId} onChange={(id) => set('rigpageSetupId', id)} error={errors.rigpageSetupId?.message} />
    </EditorCard>
  )
}
