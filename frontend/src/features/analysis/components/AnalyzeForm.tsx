import { zodResolver } from '@hookform/resolvers/zod'
import * as Tabs from '@radix-ui/react-tabs'
import { Camera, PenLine, RefreshCw } from 'lucide-react'
import { Suspense, useCallback, useEffect, useState, type ComponentType } from 'react'
import { Controller, useForm, type Resolver } from 'react-hook-form'
import { useNavigate } from 'react-router-dom'
import type { User } from '@/api/client'
import { useAuth } from '@/lib/auth'
import { formatScore } from '@/lib/ratingBands'
import { shortDate } from '@/lib/relativeTime'
import { useMyAnalyses } from '../api'
import { TextAreaField } from '@/components/ui/Field'
import { SETUP_PHOTO_RULES } from '@/lib/dropzone'
import { downscaleToJpegDataUrl } from '@/lib/imageDownscale'
import { MAX_DESCRIPTION, MIN_DESCRIPTION } from '../limits'
import type { AnalyzeFormValues, AnalyzeState, DescribeFormInput, DescribeFormValues } from '../schemas'
import { ImageDropzone } from './ImageDropzone'

/** The analysis photo is fitted within 1920x1080 and sent as JPEG at quality 0.9 (spec 000 §4). */
export const ANALYSIS_MAX_WIDTH = 1920
export const ANALYSIS_MAX_HEIGHT = 1080
export const ANALYSIS_QUALITY = 0.9
export const PROCESS_FAILED = 'Failed to process image. Please try a different image.'

/** What is sent once the member may analyze: a photo with its note, or a description. */
type Pending = { type: 'image'; photo: File; description: string } | { type: 'text'; value: string }

type Mode = 'photo' | 'describe'

/** Why the credits dialog closed: dismissed (the held analysis is dropped) or handed to the auth dialog (kept). */
export type CreditsDialogClose = 'dismiss' | 'auth'

/** The dialog offering ways to get a credit; the page passes the credits feature's. */
export type CreditsDialog = ComponentType<{ open: boolean; onClose: (reason: CreditsDialogClose) => void }>

// zod is the largest library the home page would load, and only validation needs it: the
// schemas load with the first validation (a blur or a submit), not before the first paint.
const photoResolver: Resolver<AnalyzeFormValues> = async (values, context, options) =>
  zodResolver((await import('../schemas')).analyzeFormSchema)(values, context, options)
const describeResolver: Resolver<DescribeFormInput, unknown, DescribeFormValues> = async (values, context, options) =>
  zodResolver((await import('../schemas')).describeFormSchema)(values, context, options)

/** Members need a credit per analysis; Pro members are not charged. */
function canAnalyze(user: User | null): boolean {
  return !user || user.isPro || user.credits >= 1
}

/**
 * The home page's analyzer (spec 000 §4 "Analyze flow"): a photo and an optional note, or,
 * on the Describe tab, a description instead of a photo.
 * Visitors go straight to the results page (the server grants the one free trial);
 * members need a credit (Pro members do not); without one the analysis waits behind the
 * out-of-credits dialog (`creditsDialog`, from the page) and resumes once a credit arrives.
 */
export function AnalyzeForm({
  creditsDialog: CreditsDialog,
  previousAnalysisId,
  onStopRerating,
}: {
  creditsDialog: CreditsDialog
  /** Re-rate this setup: the member's analysis the next one is compared with (issue 58). */
  previousAnalysisId?: number | undefined
  /** Called when the member no longer re-rates it (a fresh analysis instead). */
  onStopRerating?: (() => void) | undefined
}) {
  const navigate = useNavigate()
  const { state, user } = useAuth()
  const [mode, setMode] = useState<Mode>('photo')
  const [pending, setPending] = useState<Pending | null>(null)
  const [creditsOpen, setCreditsOpen] = useState(false)
  // Mounted from its first opening: the page may pass a lazy dialog.
  const [creditsUsed, setCreditsUsed] = useState(false)
  if (creditsOpen && !creditsUsed) setCreditsUsed(true)
  const [processing, setProcessing] = useState(false)
  // Shown under the form, not in a browser alert; a new photo (or none) clears it.
  const [processError, setProcessError] = useState<string | null>(null)
  const clearProcessError = useCallback(() => setProcessError(null), [])

  const start = useCallback(
    async (request: Pending) => {
      const linked = previousAnalysisId !== undefined ? { previousAnalysisId } : {}
      if (request.type === 'text') {
        const next: AnalyzeState = { type: 'text', value: request.value, ...linked }
        navigate('/results', { state: next })
        return
      }
      const { photo: file, description } = request
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
      const next: AnalyzeState = { type: 'image', value, fileName: file.name, ...(trimmed ? { description: trimmed } : {}), ...linked }
      navigate('/results', { state: next })
    },
    [navigate, previousAnalysisId],
  )

  /** Sends the request now, or holds it behind the credits dialog. */
  const submit = async (request: Pending) => {
    if (state.status === 'authenticated' && !canAnalyze(user)) {
      setPending(request)
      setCreditsOpen(true)
      return
    }
    await start(request)
  }

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

  return (
    <div className="stack">
      {previousAnalysisId !== undefined && <RerateBanner id={previousAnalysisId} onStop={onStopRerating} />}
      <Tabs.Root value={mode} onValueChange={(next) => setMode(next as Mode)}>
        <Tabs.List className="tabs-list" aria-label="How to share your setup">
          <Tabs.Trigger className="tabs-trigger" value="photo">
            <Camera aria-hidden="true" /> Photo
          </Tabs.Trigger>
          <Tabs.Trigger className="tabs-trigger" value="describe">
            <PenLine aria-hidden="true" /> Describe
          </Tabs.Trigger>
        </Tabs.List>
        {/* Both stay mounted, so switching tabs keeps what was entered. */}
        <Tabs.Content value="photo" forceMount hidden={mode !== 'photo'} tabIndex={-1}>
          <PhotoForm busy={processing} processError={processError} clearProcessError={clearProcessError} onAnalyze={submit} />
        </Tabs.Content>
        <Tabs.Content value="describe" forceMount hidden={mode !== 'describe'} tabIndex={-1}>
          <DescribeForm busy={processing} onAnalyze={submit} />
        </Tabs.Content>
      </Tabs.Root>
      {state.status === 'authenticated' && user && !user.isPro && user.credits < 1 && (
        <p className="hint center">You have no credits left. Analyzing opens the ways to get one.</p>
      )}
      {creditsUsed && (
        <Suspense fallback={null}>
          <CreditsDialog open={creditsOpen} onClose={onCreditsClose} />
        </Suspense>
      )}
    </div>
  )
}

/**
 * Says which analysis the next one re-rates: its score and when it was made, with a way back
 * to a fresh analysis. A link to an analysis not in the member's history says so.
 */
function RerateBanner({ id, onStop }: { id: number; onStop?: (() => void) | undefined }) {
  const { state } = useAuth()
  const { data } = useMyAnalyses(state.status === 'authenticated')
  const previous = data?.analyses.find((a) => a.id === id)
  return (
    <div className="rerate-banner" role="status" data-testid="rerate-banner">
      <RefreshCw aria-hidden="true" />
      <p>
        {previous ? (
          <>
            Re-rating your setup from {shortDate(previous.createdAt)} (<strong>{formatScore(previous.overallRating)}/10</strong>).{' '}
            Take the new photo from the same spot to compare fairly.
          </>
        ) : (
          <>Re-rating one of your setups: the result will compare with it.</>
        )}
      </p>
      {onStop && (
        <button type="button" className="btn btn-ghost btn-sm" onClick={onStop}>
          Rate a different setup
        </button>
      )}
    </div>
  )
}

interface PhotoFormProps {
  busy: boolean
  processError: string | null
  clearProcessError: () => void
  onAnalyze: (request: Pending) => Promise<void>
}

/** A photo (required) and an optional note. */
function PhotoForm({ busy: processing, processError, clearProcessError, onAnalyze }: PhotoFormProps) {
  const { control, register, handleSubmit, reset, watch, formState } = useForm<AnalyzeFormValues>({
    resolver: photoResolver,
    mode: 'onTouched',
    defaultValues: { photo: null, description: '' },
  })
  const photo = watch('photo')
  useEffect(() => clearProcessError(), [photo, clearProcessError])

  const onSubmit = handleSubmit(async ({ photo: file, description }) => {
    if (!file) return
    await onAnalyze({ type: 'image', photo: file, description })
  })

  const busy = processing || formState.isSubmitting

  return (
    <form className="stack" onSubmit={onSubmit} noValidate aria-label="Analyze a photo of your setup">
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
    </form>
  )
}

/** A description of the setup instead of a photo: at least 20 characters. */
function DescribeForm({ busy, onAnalyze }: { busy: boolean; onAnalyze: (request: Pending) => Promise<void> }) {
  const { register, handleSubmit, formState } = useForm<DescribeFormInput, unknown, DescribeFormValues>({
    resolver: describeResolver,
    mode: 'onTouched',
    defaultValues: { value: '' },
  })
  const onSubmit = handleSubmit(async ({ value }) => onAnalyze({ type: 'text', value }))
  const pending = busy || formState.isSubmitting
  return (
    <form className="stack" onSubmit={onSubmit} noValidate aria-label="Analyze a description of your setup">
      <TextAreaField
        label="Describe your setup"
        rows={6}
        maxLength={MAX_DESCRIPTION}
        placeholder="Your desk, monitors, chair, lighting and how the cables run, e.g. 'Two 27-inch monitors on arms, white desk, RGB strip behind it...'"
        hint={`At least ${MIN_DESCRIPTION} characters.`}
        disabled={pending}
        error={formState.errors.value?.message}
        {...register('value')}
      />
      <div className="row analyze-actions">
        <button type="submit" className="btn btn-primary analyze-submit" disabled={pending} aria-busy={pending || undefined}>
          Analyze My Setup
        </button>
      </div>
    </form>
  )
}
