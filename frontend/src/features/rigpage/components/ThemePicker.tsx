import { Skeleton } from '@/components/ui/Skeleton'
import { useThemes } from '../api'
import type { Theme, ThemePreset } from '../draft'

/** The 13 themes from the server; choosing one applies its preset. */
export function ThemePicker({ value, onChoose }: { value: Theme; onChoose: (theme: ThemePreset) => void }) {
  const { data: themes, error } = useThemes()
  if (error) return <p className="form-error" role="alert">Could not load the themes.</p>
  if (!themes) {
    return (
      <div role="status" aria-busy="true">
        <span className="sr-only">Loading themes</span>
        <Skeleton height={96} />
      </div>
    )
  }
  return (
    <ul className="rp-themes plain-list" aria-label="Themes">
      {themes.map((theme) => (
        <li key={theme.id}>
          <button
            type="button"
            className="rp-theme"
            aria-pressed={theme.id === value}
            onClick={() => onChoose(theme)}
            data-theme={theme.id}
          >
            <span className="rp-theme-swatch" aria-hidden="true" style={{ background: `linear-gradient(135deg, ${theme.backgroundOverlay} 45%, ${theme.highlightColor} 45%)` }} />
            <span>{theme.name}</span>
          </button>
        </li>
      ))}
    </ul>
  )
}
