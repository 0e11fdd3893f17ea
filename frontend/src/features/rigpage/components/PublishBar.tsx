import { credits } from '../draft'
import type { RigpageEditorForm } from '../useRigpageEditor'

type PublishBarProps = { form: Pick<RigpageEditorForm, 'editor' | 'draft' | 'balance' | 'live' | 'canGoLive' | 'isSubmitting' | 'busy' | 'saveChanges' | 'goLive'> }

/**
 * The editor's save and publish bar (sticky on a phone): the balance, the live page, Save
 * Changes and, while the page is private, Go Live.
 */
export function PublishBar({ form: { editor, draft, balance, live, canGoLive, isSubmitting, busy, saveChanges, goLive } }: PublishBarProps) {
  return (
    <div className="card rp-actions" role="group" aria-label="Save and publish">
      <div className="row rp-actions-top">
        <p className="hint rp-balance">Balance: <strong>{credits(balance)}</strong></p>
        {/* On a phone the preview sits below the whole form: the sticky bar leads there. */}
        <a href="#rp-preview" className="text-link rp-preview-jump">Preview ↓</a>
      </div>
      <div className="row">
        {live ? (
          <a href={`/rig/${editor.rigpageSlug}`} target="_blank" rel="noopener" className="btn btn-ghost">View live page</a>
        ) : (
          <button type="button" className="btn btn-ghost" disabled>View live page</button>
        )}
        <button type="button" className="btn btn-secondary" onClick={() => void saveChanges()} disabled={isSubmitting}>
          {busy('save') ? 'Saving...' : 'Save Changes'}
        </button>
        {!draft.rigpageEnabled && (
          <button type="button" className="btn btn-primary" onClick={goLive} disabled={!canGoLive || isSubmitting}>
            {busy('publish') ? 'Publishing...' : 'Go Live'}
          </button>
        )}
      </div>
    </div>
  )
}
