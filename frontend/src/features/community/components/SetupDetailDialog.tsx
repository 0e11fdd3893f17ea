import useEmblaCarousel from 'embla-carousel-react'
import { useCallback, useEffect, useState } from 'react'
import { Link } from 'react-router-dom'
import { Modal } from '@/components/ui/Modal'
import { formatScore } from '@/lib/ratingBands'
import type { CommunitySetup } from '../api'
import { canEdit, photoLabel, type VoteValue } from '../logic'
import { CommentThread } from './CommentThread'
import { ProBadge, RigPageBadge, VoteButtons } from './SetupCard'
import { GearList } from './GearList'

/**
 * The photos, one at a time; wraps at both ends and follows a swipe. A re-rated post's before
 * photo (`beforeIndex`) says "Before" and the others "After".
 */
export function Carousel({ images, title, beforeIndex }: { images: string[]; title: string; beforeIndex?: number | null | undefined }) {
  const [emblaRef, embla] = useEmblaCarousel({ loop: true, dragThreshold: 10 })
  const [index, setIndex] = useState(0)
  useEffect(() => {
    if (!embla) return
    const onSelect = () => setIndex(embla.selectedScrollSnap())
    embla.on('select', onSelect)
    return () => void embla.off('select', onSelect)
  }, [embla])
  const prev = useCallback(() => embla?.scrollPrev(), [embla])
  const next = useCallback(() => embla?.scrollNext(), [embla])
  return (
    <div className="cm-carousel" aria-roledescription="carousel" aria-label={`Photos of ${title}`}>
      <div className="cm-carousel-viewport" ref={emblaRef}>
        <div className="cm-carousel-track">
          {images.map((src, i) => (
            <div className="cm-carousel-slide" key={`${src}-${i}`} aria-roledescription="slide" aria-label={`${i + 1} of ${images.length}`}>
              {photoLabel(i, beforeIndex) && <span className="badge cm-photo-label" data-testid="photo-label">{photoLabel(i, beforeIndex)}</span>}
              <img src={src} alt={`${title}, photo ${i + 1}${photoLabel(i, beforeIndex) === 'Before' ? ', before' : ''}`} />
            </div>
          ))}
        </div>
      </div>
      {images.length > 1 && (
        <div className="row cm-carousel-nav">
          <button type="button" className="btn btn-secondary btn-sm" onClick={prev} aria-label="Previous photo">‹</button>
          <span className="muted" data-testid="carousel-position">{index + 1} / {images.length}</span>
          <button type="button" className="btn btn-secondary btn-sm" onClick={next} aria-label="Next photo">›</button>
        </div>
      )}
    </div>
  )
}

interface SetupDetailDialogProps {
  setup: CommunitySetup | null
  onClose: () => void
  signedIn: boolean
  viewerId: number | null
  onVote: (setup: CommunitySetup, value: VoteValue) => void
  /** Why the server refused the member's vote on this setup, if it did. */
  voteRefusal?: string | null
  onReport: (setup: CommunitySetup) => void
  onEdit?: (setup: CommunitySetup) => void
  onDelete?: (setup: CommunitySetup) => void
  onLogin: () => void
}

/** A setup in full: the photos, the analysis's score and suggestions, votes, actions and the comments. */
export function SetupDetailDialog({ setup, onClose, signedIn, viewerId, onVote, voteRefusal, onReport, onEdit, onDelete, onLogin }: SetupDetailDialogProps) {
  if (!setup) return null
  const title = setup.title || 'Untitled setup'
  const own = viewerId !== null && viewerId === setup.uploaderId
  const images = setup.images.length > 0 ? setup.images : setup.imageUrl ? [setup.imageUrl] : []
  return (
    <Modal open onOpenChange={(open) => !open && onClose()} title={title} wide>
      <div className="stack">
        {images.length > 0 && <Carousel images={images} title={title} beforeIndex={setup.beforeImageIndex} />}
        <div className="row cm-meta">
          <Link to={`/user/${setup.uploaderId}`} className="text-link">{setup.uploaderDisplayName || setup.uploaderUsername}</Link>
          {setup.uploaderIsPro && <ProBadge />}
          <RigPageBadge setup={setup} />
        </div>
        {setup.description && <p>{setup.description}</p>}
        <GearList gear={setup.gear} />
        {setup.analysis && (
          <section className="stack" aria-label="Analysis">
            <p><strong>SetupIQ Score: {formatScore(setup.analysis.overallRating)}/10</strong></p>
            {setup.analysis.improvementSuggestions.length > 0 && (
              <ul className="check-list">
                {setup.analysis.improvementSuggestions.map((s, i) => <li key={i}>{s}</li>)}
              </ul>
            )}
          </section>
        )}
        <div className="row dialog-actions">
          <VoteButtons setup={setup} signedIn={signedIn} own={own} onVote={(value) => onVote(setup, value)} refusal={voteRefusal} />
          {!own && (
            <button type="button" className="btn btn-ghost btn-sm" title={signedIn ? 'Report' : 'Click to log in'} onClick={() => (signedIn ? onReport(setup) : onLogin())}>
              Report
            </button>
          )}
          {own && onEdit && canEdit(setup.createdAt) && (
            <button type="button" className="btn btn-secondary btn-sm" onClick={() => onEdit(setup)}>Edit</button>
          )}
          {own && onDelete && (
            <button type="button" className="btn btn-danger btn-sm" onClick={() => onDelete(setup)}>Delete</button>
          )}
        </div>
        <CommentThread setup={setup} />
      </div>
    </Modal>
  )
}
