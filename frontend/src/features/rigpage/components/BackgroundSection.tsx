import { toast } from '@/lib/toast'
import type { RigpageEditorForm } from '../useRigpageEditor'
import { ColorField, Slider, SwitchRow } from './Controls'
import { EditorCard } from './EditorCard'
import { ImageUpload } from './ImageUpload'

type BackgroundSectionProps = { form: Pick<RigpageEditorForm, 'draft' | 'errors' | 'set' | 'setupHasImage' | 'slidersEnabled'> }

/**
 * The editor's "Background" card: an uploaded image and its overlay, the showcased setup's
 * photo behind the hero (with its blur and opacity) and the "My gear" block.
 */
export function BackgroundSection({ form: { draft, errors, set, setupHasImage, slidersEnabled } }: BackgroundSectionProps) {
  return (
    <EditorCard id="rp-bg" title="Background">
      <div className="row">
        {draft.backgroundImage && <img src={draft.backgroundImage} alt="Your background" className="rp-bg-thumb" />}
        <ImageUpload
          kind="background"
          label="Background image"
          buttonText={draft.backgroundImage ? 'Change Background' : 'Upload Background'}
          successMessage="Background image uploaded! Remember to save changes."
          failureMessage="Failed to upload background image. Please try again."
          onUploaded={(url) => set('backgroundImage', url)}
        />
        {draft.backgroundImage && (
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            onClick={() => {
              set('backgroundImage', null)
              toast.info('Background image removed. Remember to save changes.')
            }}
          >
            Remove Background
          </button>
        )}
      </div>
      {errors.backgroundImage && <p className="field-error" role="alert">{errors.backgroundImage.message}</p>}
      <ColorField label="Overlay color" value={draft.backgroundOverlay} error={errors.backgroundOverlay?.message} onChange={(value) => set('backgroundOverlay', value)} />
      <SwitchRow
        label="Show setup in hero"
        hint={setupHasImage ? 'Your setup photo behind your name.' : 'Choose a setup photo first.'}
        checked={draft.showSetupInBackground}
        onChange={(on) => set('showSetupInBackground', on)}
        disabled={!setupHasImage}
      />
      <SwitchRow
        label="My gear"
        hint="The gear listed on your showcased setup's community post, with its shop links."
        checked={draft.showGear}
        onChange={(on) => set('showGear', on)}
      />
      <div className="grid grid-2">
        <Slider label="Setup blur" min={0} max={50} value={draft.backgroundBlur} valueText={`${draft.backgroundBlur} px`} disabled={!slidersEnabled} onChange={(value) => set('backgroundBlur', value)} />
        <Slider label="Setup opacity" min={0} max={100} value={draft.backgroundOpacity} valueText={`${draft.backgroundOpacity}%`} disabled={!slidersEnabled} onChange={(value) => set('backgroundOpacity', value)} />
      </div>
    </EditorCard>
  )
}
