import { forwardRef, useId, useState, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes } from 'react'

interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: ReactNode
  error?: string | undefined
  hint?: ReactNode
}

/**
 * Why a field's hint stays beside its error instead of giving way to it: the error appears
 * while focus moves on from the field (validation on blur), when no element has focus; a
 * node removed from an open dialog at that moment makes its focus trap take focus back to
 * the dialog itself (Radix's FocusScope), so Tab would skip the rest of the form. Adding the
 * error removes nothing.
 */
function describedBy(inputId: string, error: string | undefined, hint: ReactNode): string | undefined {
  return [error ? `${inputId}-error` : null, hint ? `${inputId}-hint` : null].filter(Boolean).join(' ') || undefined
}

/** A labelled input with its error message wired up for screen readers. */
export const Field = forwardRef<HTMLInputElement, FieldProps>(function Field({ label, error, hint, id, ...input }, ref) {
  const generated = useId()
  const inputId = id ?? generated
  return (
    <div className="field">
      <label htmlFor={inputId}>{label}</label>
      <input ref={ref} id={inputId} className="input" aria-invalid={error ? true : undefined} aria-describedby={describedBy(inputId, error, hint)} {...input} />
      {hint && <p id={`${inputId}-hint`} className="hint">{hint}</p>}
      {error && <p id={`${inputId}-error`} className="field-error" role="alert">{error}</p>}
    </div>
  )
})

interface TextAreaFieldProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  label: ReactNode
  error?: string | undefined
  hint?: ReactNode
}

export const TextAreaField = forwardRef<HTMLTextAreaElement, TextAreaFieldProps>(function TextAreaField({ label, error, hint, id, ...area }, ref) {
  const generated = useId()
  const areaId = id ?? generated
  return (
    <div className="field">
      <label htmlFor={areaId}>{label}</label>
      <textarea ref={ref} id={areaId} className="textarea" aria-invalid={error ? true : undefined} aria-describedby={describedBy(areaId, error, hint)} {...area} />
      {hint && <p id={`${areaId}-hint`} className="hint">{hint}</p>}
      {error && <p id={`${areaId}-error`} className="field-error" role="alert">{error}</p>}
    </div>
  )
})

/** A password input with a show/hide toggle. */
export const PasswordField = forwardRef<HTMLInputElement, FieldProps>(function PasswordField({ label, error, hint, id, ...input }, ref) {
  const generated = useId()
  const inputId = id ?? generated
  const [visible, setVisible] = useState(false)
  return (
    <div className="field">
      <label htmlFor={inputId}>{label}</label>
      <div className="password-wrap">
        <input ref={ref} id={inputId} type={visible ? 'text' : 'password'} className="input" aria-invalid={error ? true : undefined} aria-describedby={describedBy(inputId, error, hint)} {...input} />
        <button type="button" className="btn btn-ghost btn-sm password-toggle" onClick={() => setVisible((v) => !v)} aria-label={visible ? 'Hide password' : 'Show password'} aria-pressed={visible}>
          {visible ? 'Hide' : 'Show'}
        </button>
      </div>
      {hint && <p id={`${inputId}-hint`} className="hint">{hint}</p>}
      {error && <p id={`${inputId}-error`} className="field-error" role="alert">{error}</p>}
    </div>
  )
})
