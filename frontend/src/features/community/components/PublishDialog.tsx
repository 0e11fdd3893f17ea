import { zodResolver } from '@hookform/resolvers/zod'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { Link, useNavigate } from 'react-router-dom'
import { toast } from '@/lib/toast'
import { FileText } from 'lucide-react'
import { Field, TextAreaField } from '@/components/ui/Field'
import { Modal } from '@/components/ui/Modal'
import { ApiError } from '@/api/client'
import { formatScore } from '@/lib/ratingBands'
import { shortDate } from '@/lib/relativeTime'
import { publishSetup, saveGear, useMyAnalyses, useRefreshCommunity, type SavedAnalysis } from '../api'
import { checkGear, suggestGear, type GearRow } from '../gear'
import { beforePhotoOf, DESCRIPTION_MAX, maxExtraImages, TITLE_MAX } from '../logic'
import { postWordsSchema, type PostWordsValues } from '../schemas'
import { PhotoList, type Photo } from './PhotoList'
import { GearEditor } from './GearEditor'

/**
 * The photos to send: none means the analysis's own photo alone; with extras, its own photo
 * comes first, sent by its URL (the server keeps it as it is, no copy).
 */
export function publishImages(analysis: SavedAnalysis, extras: string[]): string[] {
  if (extras.length === 0) return []
  if (analysis.inputType !== 'image') return extras
  return [analysis.inputData, ...extras]
}

function AnalysisThumb({ analysis }: { analysis: SavedAnalysis }) {
  const src = analysis.inputType === 'image' ? analysis.thumbnailUrl ?? analysis.inputData : null
  return src ? <img className="cm-analysis-thumb" src={src} alt="" /> : <div className="cm-analysis-thumb history-thumb-empty" aria-hidden="true"><FileText aria-hidden="true" /></div>
}

interface PublishDialogProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  /** An analysis to start from (step 2), once the user's analyses have loaded and hold it. */
  initialAnalysisId?: number | undefined
}

/** 'Publish Setup to Community': pick an analysis, add photos and words, publish. */
export function PublishDialog({ open, onOpenChange, initialAnalysisId }: PublishDialogProps) {
  const { data, error, isLoading } = useMyAnalyses(open)
  const analyses = data?.analyses
  const refresh = useRefreshCommunity()
  // The user's own choice (null after 'Change'); until there is one, the initial analysis.
  const [chosen, setChosen] = useState<SavedAnalysis | null | undefined>(undefined)
  const selected = chosen !== undefined ? chosen : (analyses?.find((a) => a.id === initialAnalysisId) ?? null)
  const [photos, setPhotos] = useState<Photo[]>([])
  // A re-rated photo analysis's post shows the photo it was re-rated from, unless unticked.
  const [showBefore, setShowBefore] = useState(true)
  // The gear rows, offered from the analysis once one is chosen (null: not offered yet).
  const [gearRows, setGearRows] = useState<GearRow[] | null>(null)
  const [gearError, setGearError] = useState<{ message: string; index: number } | null>(null)
  const gear = gearRows ?? (selected ? suggestGear(selected) : [])
  const words = useForm<PostWordsValues>({ resolver: zodResolver(postWordsSchema), defaultValues: { title: '', description: '' } })
  const { register, handleSubmit, formState } = words
  const pending = formState.isSubmitting
  const [formError, setFormError] = useState<string | null>(null)
  // The server said this analysis is already on Community: offer the post instead.
  const [alreadyPublished, setAlreadyPublished] = useState(false)

  const reset = () => {
    setChosen(undefined)
    setPhotos([])
    setShowBefore(true)
    setGearRows(null)
    setGearError(null)
    words.reset()
    setFormError(null)
    setAlreadyPublished(false)
  }
  const close = () => {
    if (pending) return
    reset()
    onOpenChange(false)
  }
  const choose = (analysis: SavedAnalysis | null) => {
    setChosen(analysis)
    setPhotos([])
    setShowBefore(true)
    setGearRows(null)
    setGearError(null)
    setFormError(null)
    setAlreadyPublished(false)
  }

  const navigate = useNavigate()
  const ownPhoto = selected?.inputType === 'image'
  const beforePhoto = selected ? beforePhotoOf(selected) : null
  const withBefore = beforePhoto !== null && showBefore
  const maxExtras = maxExtraImages(ownPhoto, withBefore)
  const publish = handleSubmit(async ({ title, description }) => {
    if (!selected) return
    if (!ownPhoto && photos.length === 0) {
      setFormError('Add at least one photo of this setup.')
      return
    }
    const checked = checkGear(gear)
    if ('error' in checked) {
      setGearError({ message: checked.error, index: checked.index })
      return
    }
    setGearError(null)
    setFormError(null)
    try {
      const images = publishImages(selected, photos.map((p) => p.src))
      const before = beforePhoto !== null ? { withBeforePhoto: showBefore } : {}
      const { setupId } = await publishSetup({ analysisId: selected.id, images, title: title || null, description: description || null, ...before })
      if (checked.items.length > 0) {
        try {
          await saveGear(setupId, checked.items)
        } catch (err) {
          // The post stands; its gear can be added from the edit dialog.
          const message = err instanceof ApiError ? (err.issues[0]?.message ?? err.message) : undefined
          toast.error('Your setup was published, but its gear was not saved.', message ? { description: message } : undefined)
        }
      }
      // The toast leads to the new post, where it can be seen as others see it.
      toast.success('Setup uploaded successfully!', { action: { label: 'View post', onClick: () => navigate(`/community/setup/${setupId}`) } })
      refresh()
      reset()
      onOpenChange(false)
    } catch (err) {
      const message = err instanceof ApiError ? (err.issues[0]?.message ?? err.message) : undefined
      if (err instanceof ApiError && err.code === 'already_published') setAlreadyPublished(true)
      else toast.error('Failed to upload setup.', message ? { description: message } : undefined)
      if (message) setFormError(message)
    }
  })

  return (
    <Modal open={open} onOpenChange={(next) => (next ? onOpenChange(true) : close())} title="Publish Setup to Community" wide dismissible={!pending}>
      {!selected ? (
        <div className="stack">
          <Link to="/" className="btn btn-primary" onClick={close}>Analyze a New Setup</Link>
          <h3>Or choose one of your analyses</h3>
          {isLoading && <p className="muted" role="status">Loading your analyses...</p>}
          {error && <p className="form-error" role="alert">{error instanceof Error ? error.message : 'Failed to fetch analyses.'}</p>}
          {analyses && analyses.length === 0 && <p className="muted">You have no analyses yet.</p>}
          <ul className="plain-list stack cm-analyses">
            {analyses?.map((a) => (
              <li key={a.id}>
                <button type="button" className="card card-hover row cm-analysis" onClick={() => choose(a)} aria-label={`Choose analysis from ${shortDate(a.createdAt)} rated ${formatScore(a.overallRating)}/10`}>
                  <AnalysisThumb analysis={a} />
                  <span className="stack">
                    <strong>{formatScore(a.overallRating)}/10</strong>
                    <span className="muted">{shortDate(a.createdAt)}</span>
                    {a.improvementSuggestions[0] && <span className="hint">{a.improvementSuggestions[0]}</span>}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <form className="stack" onSubmit={publish} noValidate>
          <div className="card row cm-analysis" data-testid="selected-analysis">
            <AnalysisThumb analysis={selected} />
            <span className="stack">
              <strong>{formatScore(selected.overallRating)}/10</strong>
              <span className="muted">{shortDate(selected.createdAt)}</span>
            </span>
            <button type="button" className="btn btn-secondary btn-sm" onClick={() => choose(null)} disabled={pending}>Change</button>
          </div>
          <PhotoList
            photos={photos}
            onChange={setPhotos}
            max={maxExtras}
            disabled={pending}
            label={ownPhoto ? 'Extra photos (your analysed photo comes first)' : 'Photos of your setup (at least one)'}
          />
          {beforePhoto && (
            <label className="row cm-before-option">
              <input
                type="checkbox"
                checked={showBefore}
                onChange={(e) => setShowBefore(e.target.checked)}
                // Room for it among the 5 photos: untick it, or remove an extra photo first.
                disabled={pending || (!showBefore && photos.length > maxExtraImages(ownPhoto, true))}
              />
              <img className="cm-analysis-thumb" src={beforePhoto} alt="" />
              <span className="stack">
                <span>Show the before photo</span>
                <span className="hint">The photo you re-rated, labelled “Before” on your post</span>
              </span>
            </label>
          )}
          <Field label="Title (optional)" maxLength={TITLE_MAX} disabled={pending} error={formState.errors.title?.message} {...register('title')} />
          <TextAreaField label="Description (optional)" maxLength={DESCRIPTION_MAX} disabled={pending} error={formState.errors.description?.message} {...register('description')} />
          <GearEditor rows={gear} onChange={(rows) => { setGearRows(rows); setGearError(null) }} disabled={pending} error={gearError} />
          <p className="hint cm-rigpage-note">
            Got a RigPage? Turn on “Show on community” in the <Link to="/rigpage-config" className="text-link">RigPage editor</Link> and a link to it appears on your posts.
          </p>
          {formError && (
            <p className="form-error" role="alert">
              {formError}
              {alreadyPublished && <> <Link to="/my-posts" className="text-link" onClick={close}>View your post</Link></>}
            </p>
          )}
          <div className="row dialog-actions">
            <button type="button" className="btn btn-secondary" onClick={close} disabled={pending}>Cancel</button>
            <button type="submit" className="btn btn-primary" disabled={pending}>
              {pending ? 'Publishing...' : 'Publish to Community'}
            </button>
          </div>
        </form>
      )}
    </Modal>
  )
}
