import { BUTTON_STYLES, FONT_STYLES, radiusLabel } from '../draft'
import type { RigpageEditorForm } from '../useRigpageEditor'
import { ColorField, SelectField, Slider } from './Controls'
import { EditorCard } from './EditorCard'

/** The editor's "Style" card: highlight color, font, button style and corner radius. */
export function StyleSection({ form: { draft, errors, set } }: { form: Pick<RigpageEditorForm, 'draft' | 'errors' | 'set'> }) {
  return (
    <EditorCard id="rp-style" title="Style">
      <div className="grid grid-2">
        <ColorField label="Highlight color" value={draft.rigpageHighlightColor} error={errors.rigpageHighlightColor?.message} onChange={(value) => set('rigpageHighlightColor', value)} />
        <SelectField label="Font" value={draft.fontStyle} options={FONT_STYLES} onChange={(value) => set('fontStyle', value)} />
        <SelectField label="Button style" value={draft.buttonStyle} options={BUTTON_STYLES} onChange={(value) => set('buttonStyle', value)} />
        <Slider
          label="Corner radius"
          min={0}
          max={100}
          value={draft.buttonCornerRadius}
          valueText={`${draft.buttonCornerRadius} · ${radiusLabel(draft.buttonCornerRadius)}`}
          onChange={(value) => set('buttonCornerRadius', value)}
        />
      </div>
    </EditorCard>
  )
}
