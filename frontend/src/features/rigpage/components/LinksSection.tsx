import { sectionNames } from '../draft'
import type { RigpageEditorForm } from '../useRigpageEditor'
import { EditorCard } from './EditorCard'
import { LinksEditor } from './LinksEditor'

type LinksSectionProps = {
  form: Pick<RigpageEditorForm, 'editor' | 'draft' | 'errors' | 'newLink' | 'allowance' | 'busy' | 'addLink' | 'changeLink' | 'removeLink' | 'moveLink'>
}

/** The editor's "Links" card: the page's links, and the "Add a link" form with what the next one costs. */
export function LinksSection({ form: { editor, draft, errors, newLink, allowance, busy, addLink, changeLink, removeLink, moveLink } }: LinksSectionProps) {
  return (
    <EditorCard id="rp-links" title="Links">
      <LinksEditor
        links={draft.links}
        deadLinkIds={editor.deadLinkIds}
        sections={sectionNames(draft.sections)}
        errors={errors.links}
        newLink={newLink}
        allowance={allowance}
        adding={busy('link')}
        onAdd={addLink}
        onChange={changeLink}
        onRemove={removeLink}
        onMove={moveLink}
      />
    </EditorCard>
  )
}
