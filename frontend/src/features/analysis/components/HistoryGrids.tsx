import { useState } from 'react'
import { Link, useNavigate } from 'react-router-dom'
import { Camera, Image, LockKeyhole, Trash2, TriangleAlert } from 'lucide-react'
import { Skeleton } from '@/components/ui/Skeleton'
import { useAuth } from '@/lib/auth'
import { formatScore, historyBadge } from '@/lib/ratingBands'
import { relativeTime, shortDate } from '@/lib/relativeTime'
import { useMyAnalyses, type SavedAnalysis } from '../api'
import { DeleteAnalysisDialog } from './DeleteAnalysisDialog'

/** Opens /results with a saved analysis (no new analysis, no credit). */
function useViewAnalysis() {
  const navigate = useNavigate()
  return (analysis: SavedAnalysis) =>
    navigate('/results', { state: { type: analysis.inputType, value: analysis.inputData, savedAnalysis: analysis } })
}

function SkeletonCards({ count, label }: { count: number; label: string }) {
  return (
    <div className="grid history-grid" role="status" aria-busy="true" data-testid="history-skeletons">
      <span className="sr-only">{label}</span>
      {Array.from({ length: count }, (_, i) => (
        <div key={i} className="card stack history-skeleton">
          <Skeleton height={140} />
          <Skeleton height={18} width="60%" />
          <Skeleton height={14} width="40%" />
        </div>
      ))}
    </div>
  )
}

function Preview({ analysis }: { analysis: SavedAnalysis }) {
  if (analysis.inputType === 'image') {
    const src = analysis.thumbnailUrl ?? analysis.inputData
    return src ? <img className="history-thumb" src={src} alt="" loading="lazy" /> : <div className="history-thumb history-thumb-empty" aria-hidden="true"><Image aria-hidden="true" /></div>
  }
  return <p className="history-text">{analysis.inputData}</p>
}

/** A shared analysis's badge: its public page, which the server renders (a plain link, not the router). */
function SharedBadge({ sharePath }: { sharePath: string }) {
  return (
    <a className="badge badge-success history-shared" href={sharePath} data-testid="shared-badge">
      Shared<span className="sr-only">: open the public page of this result</span>
    </a>
  )
}

interface MySetupsGridProps {
  /** Called after an analysis was deleted (the page refreshes what else showed it). */
  onDeleted?: ((analysis: SavedAnalysis) => void) | undefined
  /** Where focus goes once an analysis was deleted (its card is gone): the page's heading. */
  focusAfterDelete?: (() => HTMLElement | null | undefined) | undefined
}

/** My Setups (spec 000 §2): the saved analyses, newest first, with every state; each can be deleted. */
export function MySetupsGrid({ onDeleted, focusAfterDelete }: MySetupsGridProps) {
  // The analysis whose deletion is being confirmed.
  const [deleting, setDeleting] = useState<SavedAnalysis | null>(null)
  return (
    <>
      <MySetupsCards onDelete={setDeleting} />
      <DeleteAnalysisDialog analysis={deleting} onClose={() => setDeleting(null)} onDeleted={onDeleted} focusAfterDelete={focusAfterDelete} />
    </>
  )
}

function MySetupsCards({ onDelete }: { onDelete: (analysis: SavedAnalysis) => void }) {
  const { state, openAuth } = useAuth()
  const signedIn = state.status === 'authenticated'
  const { data, error, isLoading } = useMyAnalyses(signedIn)
  const view = useViewAnalysis()

  if (state.status === 'loading' || (signedIn && isLoading && !data)) return <SkeletonCards count={6} label="Loading your setups" />
  if (state.status === 'unauthenticated') {
    return (
      <div className="state card">
        <div className="state-icon" aria-hidden="true"><LockKeyhole aria-hidden="true" /></div>
        <h2>Log in to see your setups</h2>
        <p className="muted">Your analysed setups are saved to your account.</p>
        <div className="row hero-actions">
          <button type="button" className="btn btn-secondary" onClick={() => openAuth('login')}>Log In</button>
          <button type="button" className="btn btn-primary" onClick={() => openAuth('register')}>Sign Up</button>
        </div>
      </div>
    )
  }
  if (error && !data) {
    return (
      <div className="state card" role="alert">
        <div className="state-icon" aria-hidden="true"><TriangleAlert aria-hidden="true" /></div>
        <h2>Error Fetching Analyses</h2>
        <p className="muted">{error instanceof Error ? error.message : 'An unexpected error occurred while fetching analyses.'}</p>
      </div>
    )
  }
  const analyses = data?.analyses ?? []
  if (analyses.length === 0) {
    return (
      <div className="state card">
        <div className="state-icon" aria-hidden="true"><Camera aria-hidden="true" /></div>
        <h2>No setups yet</h2>
        <p className="muted">Upload a photo of your desk and get your SetupIQ Score in seconds.</p>
        <Link to="/" className="btn btn-primary">Analyze Your First Setup</Link>
      </div>
    )
  }
  return (
    <ul className="grid history-grid plain-list" data-testid="my-setups">
      {analyses.map((analysis) => (
        <li key={analysis.id} className="card history-card" data-testid="setup-card">
          <Preview analysis={analysis} />
          <div className="row history-meta">
            <p className="history-rating">
              <strong>{formatScore(analysis.overallRating)}</strong>
              <span className="muted">/10</span>
            </p>
            <time className="muted" dateTime={analysis.createdAt} title={shortDate(analysis.createdAt)}>{relativeTime(analysis.createdAt)}</time>
          </div>
          <div className="row history-tags">
            <p className="hint">{analysis.result.category}</p>
            {analysis.sharePath && <SharedBadge sharePath={analysis.sharePath} />}
          </div>
          <div className="row history-actions">
            <button type="button" className="btn btn-secondary btn-sm" onClick={() => view(analysis)}>
              View Details<span className="sr-only">: {analysis.result.category}, {shortDate(analysis.createdAt)}</span>
            </button>
            <Link to={`/?rerate=${analysis.id}`} className="btn btn-ghost btn-sm">
              Re-rate this setup<span className="sr-only">: {analysis.result.category}, {shortDate(analysis.createdAt)}</span>
            </Link>
            <button type="button" className="icon-btn history-delete" aria-label="Delete analysis" title="Delete analysis" onClick={() => onDelete(analysis)}>
              <Trash2 aria-hidden="true" />
            </button>
          </div>
        </li>
      ))}
    </ul>
  )
}

/** The profile's Setup History (spec 000 §2 "Profile page"). */
export function SetupHistory() {
  const { data, error, isLoading } = useMyAnalyses(true)
  const view = useViewAnalysis()
  if (isLoading && !data) return <SkeletonCards count={4} label="Loading your analyses" />
  if (error && !data) {
    return (
      <div className="form-error" role="alert">
        <strong>Error Loading Analyses</strong>: We couldn&apos;t load your analysis history. Please try again later.
      </div>
    )
  }
  const analyses = data?.analyses ?? []
  if (analyses.length === 0) {
    return (
      <div className="state">
        <h3>No Analyses Yet</h3>
        <p className="muted">Your analysed setups will appear here.</p>
        <Link to="/" className="btn btn-primary">Analyze a Setup</Link>
      </div>
    )
  }
  return (
    <ul className="grid history-grid plain-list" data-testid="setup-history">
      {analyses.map((analysis) => (
        <li key={analysis.id} className="card history-card">
          <Preview analysis={analysis} />
          <div className="row history-meta">
            <span className={`history-badge history-${historyBadge(analysis.overallRating)}`}>
              <span className="sr-only">Score </span>
              {formatScore(analysis.overallRating)}/10
            </span>
            <time className="muted" dateTime={analysis.createdAt}>{shortDate(analysis.createdAt)}</time>
          </div>
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => view(analysis)}>
            View<span className="sr-only"> analysis from {shortDate(analysis.createdAt)}</span>
          </button>
        </li>
      ))}
    </ul>
  )
}
