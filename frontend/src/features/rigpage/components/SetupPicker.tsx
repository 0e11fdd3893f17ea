import { Link } from 'react-router-dom'
import type { SetupOption } from '../api'

function dateOf(iso: string) {
  return new Date(iso).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' })
}

/** The photo analyses to showcase, newest first, with their thumbnails and scores. */
export function SetupPicker({ setups, value, onChange, error }: { setups: SetupOption[]; value: number | null; onChange: (id: number) => void; error?: string | undefined }) {
  if (setups.length === 0) {
    return (
      <p className="muted">
        Your page showcases one analysed setup photo. <Link to="/">Analyze a setup</Link> to get one.
      </p>
    )
  }
  return (
    <fieldset className="rp-fieldset" aria-describedby={error ? 'rp-setup-error' : undefined}>
      <legend className="sr-only">Showcased setup</legend>
      <div className="rp-setups">
        {setups.map((setup) => (
          <label key={setup.id} className={setup.id === value ? 'rp-setup rp-setup-selected' : 'rp-setup'}>
            <input type="radio" name="rp-setup" className="sr-only" value={setup.id} checked={setup.id === value} onChange={() => onChange(setup.id)} />
            <img src={setup.thumbnailUrl ?? setup.inputData} alt="" loading="lazy" />
            <span className="rp-setup-score">SetupIQ Score {setup.overallRating.toFixed(1)}</span>
            <span className="hint">{dateOf(setup.createdAt)}</span>
          </label>
        ))}
      </div>
      {error && <p id="rp-setup-error" className="field-error" role="alert">{error}</p>}
    </fieldset>
  )
}
