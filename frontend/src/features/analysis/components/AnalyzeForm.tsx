import { zodResolver } from '@hookform/resolvers/zod'
import { useCallback, useEffect, useState, type ComponentType } from 'react'
import { Controller, useForm } from 'react-hook-form'
import { useNavigate } from 'react-router-dom'
import type { User } from '@/api/client'
import { useAuth } from '@/app/auth'
import { TextAreaField } from '@/components/ui/Field'
import { SETUP_PHOTO_RULES } from '@/lib/dropzone'
import { downscaleToJpegDataUrl } from '@/lib/imageDownscale'
import { analyzeFormSchema, MAX_DESCRIPTION, type AnalyzeFormValues, type AnalyzeState } from '../schemas'
import { ImageDropzone } from './ImageDropzone'

/** The analysis photo is fitted within 1920x1080 and sent as JPEG at quality 0.9 (spec 000 §4). */
export const ANALYSIS_MAX_WIDTH = 1920
export const ANALYSIS_MAX_HEIGHT = 1080
export const ANALYSIS_QUALITY = 0.9
export const PROCESS_FAILED = 'Failed to process image. Please try a different image.'

type Pending = { photo: File; description: string }

/** Why the credits dialog closed: dismissed (the held analysis is dropped) or handed to the auth dialog (kept). */
export type CreditsDialogClose = 'dismiss' | 'auth'

/** The dialog offering ways to get a credit; the page passes the credits feature's. */
export type CreditsDialog = ComponentType<{ open: boolean; onClose: (reason: CreditsDialogClose) => void }>

/** Members need a credit per analysis; Pro members are not charged. */
function canAnalyze(user: User | null): boolean {
  return !user || user.isPro || user.credits >= 1
}

/**
 * The home page's analyzer (spec 000 §4 "Analyze flow"): a photo and an optional note.
 * Visitors go straight to the results page (the server grants the one free trial);
 * members need a credit (Pro members do not); without one the analysis waits behind the
 * out-of-credits dialog (`creditsDialog`, from the page) and resumes once a credit arrives.
 */
export function AnalyzeForm({ creditsDialog: CreditsDialog }: { creditsDialog: CreditsDialog }) {
  const navigate = useNavigate()
  const { state, user } = useAuth()
  const [pending, setPending] = useState<Pending | null>(null)
  const [creditsOpen, setCreditsOpen] = useState(false)
  const [processing, setProcessing] = useState(false)
  // Shown under the form, not in a browser alert; a new photo (or none) clears it.
  const [processError, setProcessError] = useState<string | null>(null)
  const { control, register, handleSubmit, reset, watch, formState } = useForm<AnalyzeFormValues>({
    resolver: zodResolver(analyzeFormSchema),
    defaultValues: { photo: null, description: '' },
  })
  const photo = watch('photo')
  useEffect(() => setProcessError(null), [photo])

  const start = useCallback(
    async ({ photo: file, description }: Pending) => {
      setProcessing(true)
      setProcessError(null)
      let value: string
      try {
        value = await downscaleToJpegDataUrl(file, ANALYSIS_MAX_WIDTH, ANALYSIS_MAX_HEIGHT, ANALYSIS_QUALITY)
      } catch (error) {
        console.error('image processing failed', error)
        setProcessError(PROCESS_FAILED)
        setProcessing(false)
        return
      }
      const trimmed = description.trim()
      const next: AnalyzeState = { type: 'image', value, fileName: file.name, ...(trimmed ? { description: trimmed } : {}) }
      navigate('/results', { state: next })
    },
    [navigate],
  )

  const onSubmit = handleSubmit(async ({ photo: file, description }) => {
    if (!file) return
    if (state.status === 'authenticated' && !canAnalyze(user)) {
      setPending({ photo: file, description })
      setCreditsOpen(true)
      return
    }
    await start({ photo: file, description })
  })

  // A pending analysis resumes once the member has a credit (an ad, a sign-in, a purchase).
  useEffect(() => {
    if (!pending || !user || !canAnalyze(user)) return
    const resume = pending
    setPending(null)
    setCreditsOpen(false)
    void start(resume)
  }, [pending, user, start])

  const onCreditsClose = (reason: CreditsDialogClose) => {
    setCreditsOpen(false)
    if (reason === 'dismiss') setPending(null)
  }

  const busy = processing || formState.isSubmitting

  return (
    <form className="stack" onSubmit={onSubmit} noValidate aria-label="Analyze your setup">
      <Controller
        control={control}
        name="photo"
        render={({ field }) => (
          <ImageDropzone
            label="Setup photo"
            required
            rules={SETUP_PHOTO_RULES}
            file={field.value}
            onChange={field.onChange}
            disabled={busy}
            hint="JPEG, PNG or WEBP, up to 10MB"
          />
        )}
      />
      <TextAreaField
        label="Description (optional)"
        rows={4}
        maxLength={MAX_DESCRIPTION}
        placeholder="Tell us about your setup: your gear, what you play, what bugs you about it..."
        disabled={busy}
        error={formState.errors.description?.message}
        {...register('description')}
      />
      <div className="row analyze-actions">
        <button type="submit" className="btn btn-primary analyze-submit" disabled={!photo || busy} aria-busy={busy || undefined}>
          {busy ? 'Preparing your photo...' : 'Analyze My Setup'}
        </button>
        {photo && (
          <button type="button" className="btn btn-ghost" onClick={() => reset({ photo: null, description: '' })} disabled={busy}>
            Clear
          </button>
        )}
      </div>
      {processError && <p className="form-error" role="alert">{processError}</p>}
      {state.status === 'authenticated' && user && !user.isPro && user.credits < 1 && (
        <p className="hint center">You have no credits left. Analyzing opens the ways to get one.</p>
      )}
      <CreditsDialog open={creditsOpen} onClose={onCreditsClose} />
    </form>
  )
}
