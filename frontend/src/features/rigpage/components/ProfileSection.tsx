import { Field, TextAreaField } from '@/components/ui/Field'
import { BIO_MAX, TAGLINE_MAX } from '../draft'
import type { RigpageEditorForm } from '../useRigpageEditor'
import { EditorCard } from './EditorCard'
import { ImageUpload } from './ImageUpload'

/** The editor's "Profile" card: the page's avatar (else the profile picture, else initials), tagline and bio. */
export function ProfileSection({ form: { editor, draft, errors, register, set } }: { form: Pick<RigpageEditorForm, 'editor' | 'draft' | 'errors' | 'register' | 'set'> }) {
  return (
    <EditorCard id="rp-profile" title="Profile">
      <div className="row rp-avatar-row">
        <span className="avatar avatar-lg rp-avatar">
          {draft.rigpageAvatar || editor.profilePicture ? (
            <img src={draft.rigpageAvatar ?? editor.profilePicture ?? ''} alt="Your RigPage avatar" />
          ) : (
            <span aria-hidden="true">{editor.username.slice(0, 2).toUpperCase()}</span>
          )}
        </span>
        <div className="stack rp-avatar-actions">
          <div className="row">
            <ImageUpload
              kind="avatar"
              label="Avatar image"
              buttonText={draft.rigpageAvatar ? 'Change Avatar' : 'Upload Avatar'}
              successMessage="Avatar uploaded! Remember to save changes."
              failureMessage="Failed to upload avatar. Please try again."
              onUploaded={(url) => set('rigpageAvatar', url)}
            />
            {draft.rigpageAvatar && <button type="button" className="btn btn-ghost btn-sm" onClick={() => set('rigpageAvatar', null)}>Use Profile Picture</button>}
          </div>
          <p className="hint">PNG, JPG or WebP, up to 5MB.</p>
          {errors.rigpageAvatar && <p className="field-error" role="alert">{errors.rigpageAvatar.message}</p>}
        </div>
      </div>
      <Field
        label="Tagline"
        maxLength={TAGLINE_MAX}
        placeholder="e.g. FPS streamer & RGB addict"
        error={errors.rigpageTagline?.message}
        hint={`${draft.rigpageTagline.length}/${TAGLINE_MAX}`}
        {...register('rigpageTagline')}
      />
      <div className="stack rp-bio">
        <TextAreaField
          label="Bio"
          rows={3}
          maxLength={BIO_MAX}
          placeholder="A few words about you and your setup"
          error={errors.rigpageBio?.message}
          {...register('rigpageBio')}
        />
        <p className="hint" aria-live="polite">{`${draft.rigpageBio.length}/${BIO_MAX}`}</p>
      </div>
    </EditorCard>
  )
}
