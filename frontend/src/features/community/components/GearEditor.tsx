import { useId } from 'react'
import { Plus, X } from 'lucide-react'
import { GEAR_CATEGORIES, GEAR_MAX, GEAR_NAME_MAX, GEAR_URL_MAX, newRow, type GearCategory, type GearRow } from '../gear'

interface GearEditorProps {
  rows: GearRow[]
  onChange: (rows: GearRow[]) => void
  disabled?: boolean
  /** The first rule a row breaks, shown under it (-1: under the list). */
  error?: { message: string; index: number } | null
}

/**
 * 'Gear in this setup': rows of name, category and optional shop link; add, remove, and keep
 * or drop what the analysis offered. Only kept rows are published, at most 20. A stored link
 * the daily check found dead is marked "Not working" until its address is edited.
 */
export function GearEditor({ rows, onChange, disabled = false, error }: GearEditorProps) {
  const id = useId()
  const kept = rows.filter((r) => r.kept).length
  const update = (key: string, patch: Partial<GearRow>) => onChange(rows.map((r) => (r.key === key ? { ...r, ...patch } : r)))
  const remove = (key: string) => onChange(rows.filter((r) => r.key !== key))
  const full = kept >= GEAR_MAX
  return (
    <fieldset className="stack cm-gear-editor" disabled={disabled}>
      <legend>Gear in this setup (optional)</legend>
      <p className="hint">
        Name what visitors ask about. Links go through a tracked redirect. {rows.some((r) => r.suggested) && 'We filled in what the analysis saw: tick Keep for each piece you want to show.'}
      </p>
      {rows.length > 0 && (
        <ul className="plain-list stack">
          {rows.map((row, index) => {
            const rowError = error && error.index === index ? error.message : null
            const label = row.name.trim() || `piece ${index + 1}`
            return (
              <li key={row.key} className="cm-gear-row" data-testid="gear-row">
                <input
                  className="input"
                  aria-label={`Name of gear ${index + 1}`}
                  placeholder="e.g. LG 27GP850"
                  value={row.name}
                  maxLength={GEAR_NAME_MAX + 20}
                  aria-invalid={rowError ? true : undefined}
                  onChange={(e) => update(row.key, { name: e.target.value })}
                />
                <select
                  className="input"
                  aria-label={`Category of gear ${index + 1}`}
                  value={row.category}
                  onChange={(e) => update(row.key, { category: e.target.value as GearCategory })}
                >
                  {GEAR_CATEGORIES.map((c) => <option key={c.value} value={c.value}>{c.label}</option>)}
                </select>
                <input
                  className="input"
                  type="url"
                  inputMode="url"
                  aria-label={`Shop link of gear ${index + 1} (optional)`}
                  placeholder="https://… (optional)"
                  value={row.url}
                  maxLength={GEAR_URL_MAX}
                  aria-describedby={row.linkDead ? `${id}-dead-${row.key}` : undefined}
                  onChange={(e) => update(row.key, { url: e.target.value, linkDead: false })}
                />
                <label className="row cm-gear-keep">
                  <input
                    type="checkbox"
                    checked={row.kept}
                    disabled={!row.kept && full}
                    onChange={(e) => update(row.key, { kept: e.target.checked })}
                  />
                  Keep
                </label>
                <button type="button" className="icon-btn" aria-label={`Remove ${label}`} onClick={() => remove(row.key)}>
                  <X aria-hidden="true" size={16} />
                </button>
                {row.linkDead && (
                  <p id={`${id}-dead-${row.key}`} className="cm-gear-dead" role="note">
                    <span className="badge badge-danger">Not working</span> Our daily check could not open this link twice in a row. Fix its address or remove it.
                  </p>
                )}
                {rowError && <p className="field-error cm-gear-error" role="alert">{rowError}</p>}
              </li>
            )
          })}
        </ul>
      )}
      <div className="row cm-gear-foot">
        <button type="button" className="btn btn-secondary btn-sm" onClick={() => onChange([...rows, newRow()])} disabled={full} aria-describedby={`${id}-count`}>
          <Plus aria-hidden="true" size={16} /> Add gear
        </button>
        <span id={`${id}-count`} className="hint">{kept} of {GEAR_MAX} kept</span>
      </div>
      {error && error.index === -1 && <p className="field-error" role="alert">{error.message}</p>}
    </fieldset>
  )
}
