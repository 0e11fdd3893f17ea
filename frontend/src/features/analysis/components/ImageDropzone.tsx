import { useEffect, useId, useMemo, useRef, useState, type ChangeEvent, type DragEvent } from 'react'
import { ImagePlus } from 'lucide-react'
import { formatFileSize, validateDropzoneFiles, type DropzoneRules } from '@/lib/dropzone'

interface ImageDropzoneProps {
  label: string
  rules: DropzoneRules
  file: File | null
  onChange: (file: File | null) => void
  required?: boolean
  hint?: string
  disabled?: boolean
}

/**
 * A labelled file input that also takes a dropped file: checks count, type and size with
 * the generic dropzone messages and previews the chosen image.
 */
export function ImageDropzone({ label, rules, file, onChange, required, hint, disabled }: ImageDropzoneProps) {
  const id = useId()
  const input = useRef<HTMLInputElement>(null)
  const [error, setError] = useState<string | null>(null)
  const [dragging, setDragging] = useState(false)
  const preview = useMemo(() => (file && typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : null), [file])
  useEffect(() => () => {
    if (preview) URL.revokeObjectURL(preview)
  }, [preview])

  const take = (files: File[]) => {
    if (files.length === 0) return
    const checked = validateDropzoneFiles(files, rules)
    setError(checked.error)
    if (checked.error === null) onChange(checked.files[0] ?? null)
  }

  const onInput = (event: ChangeEvent<HTMLInputElement>) => {
    take(Array.from(event.target.files ?? []))
    event.target.value = ''
  }

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault()
    setDragging(false)
    if (!disabled) take(Array.from(event.dataTransfer.files))
  }

  const describedBy = [error ? `${id}-error` : null, `${id}-hint`].filter(Boolean).join(' ')

  return (
    <div className="field">
      <div
        className={['dropzone', dragging ? 'dropzone-active' : '', file ? 'dropzone-filled' : '', error ? 'dropzone-invalid' : ''].join(' ').trim()}
        onDragOver={(event) => {
          event.preventDefault()
          if (!disabled) setDragging(true)
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-testid="dropzone"
      >
        <input
          ref={input}
          id={id}
          type="file"
          className="sr-only dropzone-input"
          accept={rules.accept.join(',')}
          multiple={rules.maxFiles > 1}
          required={required}
          aria-required={required || undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          disabled={disabled}
          onChange={onInput}
        />
        {file && preview ? (
          <img className="dropzone-preview" src={preview} alt={`Preview of ${file.name}`} />
        ) : (
          <ImagePlus className="dropzone-icon" aria-hidden="true" />
        )}
        <label htmlFor={id} className="dropzone-label">
          {label}
          {required && (
            <>
              <span aria-hidden="true" className="required-mark"> *</span>
              <span className="sr-only"> (required)</span>
            </>
          )}
        </label>
        {file ? (
          <p className="dropzone-file" data-testid="chosen-file">
            {file.name} <span className="muted">({formatFileSize(file.size)})</span>
          </p>
        ) : (
          <p className="muted">Drag and drop it here, or</p>
        )}
        <button type="button" className="btn btn-secondary btn-sm" onClick={() => input.current?.click()} disabled={disabled} aria-hidden="true" tabIndex={-1}>
          {file ? 'Choose Another Photo' : 'Browse Files'}
        </button>
        <p id={`${id}-hint`} className="hint">{hint}</p>
      </div>
      {error && <p id={`${id}-error`} className="field-error" role="alert">{error}</p>}
    </div>
  )
}
