import { Link } from 'react-router-dom'
import { Field } from '@/components/ui/Field'
import { credits, renamesLivePage } from '../draft'
import type { RigpageEditorForm } from '../useRigpageEditor'
import { SwitchRow } from './Controls'
import { EditorCard } from './EditorCard'

/** The public site's origin (from the page's address, else this one). */
function originOf(publicUrl: string | null | undefined): string {
  try {
    return new URL(publicUrl ?? '', window.location.origin).origin
  } catch {
    return window.location.origin
  }
}

type PageSectionProps = { form: Pick<RigpageEditorForm, 'editor' | 'draft' | 'errors' | 'register' | 'set' | 'togglePublic' | 'slugLocked' | 'isSubmitting'> }

/**
 * The editor's "Your Page" card: public or private (switching a never-published page on is
 * Go Live), its address (a live page's rename is warned about), the community badge and
 * the display name (changed on the profile).
 */
export function PageSection({ form: { editor, draft, errors, register, set, togglePublic, slugLocked, isSubmitting } }: PageSectionProps) {
  return (
    <EditorCard id="rp-page" title="Your Page">
      <SwitchRow
        label="Public page"
        hint={draft.rigpageEnabled ? 'Visitors can see your RigPage.' : editor.everPublished ? 'Your RigPage is private.' : `Your RigPage is private. Going live costs ${credits(editor.publishCost)}, once.`}
        checked={draft.rigpageEnabled}
        onChange={togglePublic}
        disabled={isSubmitting}
      />
      {/* Locked by the input's own `disabled`: register's option would make the value undefined, and Go Live sends it. */}
      <Field
        label="Page URL"
        maxLength={30}
        autoComplete="off"
        spellCheck={false}
        disabled={slugLocked}
        error={errors.rigpageSlug?.message}
        hint={`${originOf(editor.publicUrl)}/rig/${draft.rigpageSlug.trim() || 'your-name'}${slugLocked ? ' · Make your page public to change it.' : ''}`}
        {...register('rigpageSlug')}
      />
      {renamesLivePage(editor, draft.rigpageSlug) && (
        <p className="field-warning" role="note" data-testid="slug-warning">
          Changing your URL moves your page. For 90 days, {originOf(editor.publicUrl)}/rig/{editor.rigpageSlug} leads
          to the new address and nobody else can take it; after that, printed QR codes and links you shared with the
          old address stop working.
        </p>
      )}
      <SwitchRow
        label="Show RigPage badge on Community"
        hint="Your posts link to your RigPage."
        checked={draft.showRigpageOnCommunity}
        onChange={(on) => set('showRigpageOnCommunity', on)}
        disabled={!draft.rigpageEnabled}
      />
      <Field label="Display Name" value={editor.displayName} readOnly hint={<>Change it on <Link to="/profile">your profile</Link>.</>} />
    </EditorCard>
  )
}
