import type { RigpageEditorForm } from '../useRigpageEditor'
import { EditorCard } from './EditorCard'
import { ThemePicker } from './ThemePicker'

/** The editor's "Theme" card: a preset sets the theme and its style. */
export function ThemeSection({ form: { draft, chooseTheme } }: { form: Pick<RigpageEditorForm, 'draft' | 'chooseTheme'> }) {
  return (
    <EditorCard id="rp-theme" title="Theme">
      <ThemePicker value={draft.rigpageTheme} onChoose={chooseTheme} />
    </EditorCard>
  )
}
