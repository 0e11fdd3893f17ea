import * as Switch from '@radix-ui/react-switch'
import { useId, type ReactNode } from 'react'

/** A labelled on/off switch with an optional hint. */
export function SwitchRow({ label, hint, checked, onChange, disabled }: { label: ReactNode; hint?: ReactNode; checked: boolean; onChange: (checked: boolean) => void; disabled?: boolean }) {
  const id = useId()
  return (
    <div className="pref-row rp-switch-row">
      <div>
        <span id={`${id}-label`} className="rp-switch-label">{label}</span>
        {hint && <p id={`${id}-hint`} className="hint">{hint}</p>}
      </div>
      <Switch.Root
        className="switch"
        checked={checked}
        onCheckedChange={onChange}
        disabled={disabled}
        aria-labelledby={`${id}-label`}
        aria-describedby={hint ? `${id}-hint` : undefined}
      >
        <Switch.Thumb className="switch-thumb" />
      </Switch.Root>
    </div>
  )
}

interface SliderProps {
  label: string
  value: number
  min: number
  max: number
  onChange: (value: number) => void
  disabled?: boolean
  /** The value in words (e.g. "Medium rounding"), shown and read out. */
  valueText: string
}

/** A range input with step 1, its label and its value shown. */
export function Slider({ label, value, min, max, onChange, disabled, valueText }: SliderProps) {
  const id = useId()
  return (
    <div className="field rp-slider">
      <div className="rp-slider-head">
        <label htmlFor={id}>{label}</label>
        <span className="muted" aria-hidden="true">{valueText}</span>
      </div>
      <input
        id={id}
        type="range"
        min={min}
        max={max}
        step={1}
        value={value}
        disabled={disabled}
        aria-valuetext={valueText}
        onChange={(event) => onChange(Number(event.target.value))}
      />
    </div>
  )
}

/** A colour picker with its hex value beside it. */
export function ColorField({ label, value, onChange, error }: { label: string; value: string; onChange: (value: string) => void; error?: string | undefined }) {
  const id = useId()
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="row rp-color">
        <input
          id={id}
          type="color"
          value={value.toLowerCase()}
          onChange={(event) => onChange(event.target.value.toUpperCase())}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : `${id}-value`}
        />
        <code id={`${id}-value`}>{value.toUpperCase()}</code>
      </div>
      {error && <p id={`${id}-error`} className="field-error" role="alert">{error}</p>}
    </div>
  )
}

/** A labelled select. */
export function SelectField<T extends string>({ label, value, options, onChange, error, disabled }: { label: ReactNode; value: T; options: readonly { value: T; label: string }[]; onChange: (value: T) => void; error?: string | undefined; disabled?: boolean }) {
  const id = useId()
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        className="input"
        value={value}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => onChange(event.target.value as T)}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>{option.label}</option>
        ))}
      </select>
      {error && <p id={`${id}-error`} className="field-error" role="alert">{error}</p>}
    </div>
  )
}
