import { Link, useNavigate } from 'react-router-dom'
import { Search, TriangleAlert } from 'lucide-react'
import { ApiError } from '@/api/client'
import { formatScore } from '@/lib/ratingBands'
import { usePageTitle } from '@/lib/usePageTitle'
import { useSetup, type CommunitySetup } from '../api'
import { canEdit } from '../logic'
import { CommentThread } from './CommentThread'
import { SetupSkeletons } from './CommunityPage'
import { GearList } from './GearList'
import { Carousel } from './SetupDetailDialog'
import { ProBadge, RigPageBadge, VoteButtons } from './SetupCard'
import { useSetupActions } from './useSetupActions'

/** A setup with its votes and its conversation. */
function SetupView({ setup, mutate }: { setup: CommunitySetup; mutate: ReturnType<typeof useSetup>['mutate'] }) {
  const navigate = useNavigate()
  const actions = useSetupActions({
    setups: [setup],
    snapshot: () => setup,
    restore: (before) => void mutate(before as CommunitySetup, { revalidate: false }),
    patch: (_id, change) => void mutate((s) => (s ? (change(s) ?? s) : s), { revalidate: false }),
    // The page of a deleted post has nothing left to show: back to the member's posts.
    onDeleted: () => navigate('/my-posts', { replace: true }),
  })
  const own = actions.viewerId !== null && actions.viewerId === setup.uploaderId
  const title = setup.title || 'Untitled setup'
  const images = setup.images.length > 0 ? setup.images : setup.imageUrl ? [setup.imageUrl] : []
  return (
    <article className="stack">
      <h1>{title}</h1>
      <div className="row cm-meta">
        <Link to={`/user/${setup.uploaderId}`} className="text-link">{setup.uploaderDisplayName || setup.uploaderUsername}</Link>
        {setup.uploaderIsPro && <ProBadge />}
        <RigPageBadge setup={setup} />
      </div>
      {images.length > 0 && <Carousel images={images} title={title} beforeIndex={setup.beforeImageIndex} />}
      {setup.description && <p>{setup.description}</p>}
      <GearList gear={setup.gear} heading="h2" />
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
      <div className="row">
        <VoteButtons setup={setup} signedIn={actions.signedIn} own={own} onVote={(value) => void actions.vote(setup, value)} refusal={actions.voteRefusal(setup.id)} />
        {!own && (
          <button type="button" className="btn btn-ghost btn-sm" title={actions.signedIn ? 'Report' : 'Click to log in'} onClick={() => actions.report(setup)}>
            Report
          </button>
        )}
        {own && (canEdit(setup.createdAt) ? (
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => actions.edit(setup)}>Edit</button>
        ) : (
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => actions.editGear(setup)}>Edit gear</button>
        ))}
        {own && (
          <button type="button" className="btn btn-danger btn-sm" onClick={() => actions.askDelete(setup)}>Delete</button>
        )}
      </div>
      <CommentThread setup={setup} />
      {actions.dialogs}
    </article>
  )
}

/** `/community/setup/:setupId`: one setup, to link to and talk about. */
export function SetupPage({ setupId }: { setupId: number }) {
  const { data, error, isLoading, mutate } = useSetup(setupId)
  const notFound = !data && !isLoading && (!(Number.isFinite(setupId) && setupId > 0) || (error instanceof ApiError && error.status === 404))
  usePageTitle(data ? data.title || 'Untitled setup' : notFound ? 'Setup Not Found' : 'Community Setup')
  if (isLoading && !data) return <SetupSkeletons count={1} />
  if (!data) {
    return (
      <div className="state card" role="alert">
        <div className="state-icon" aria-hidden="true">{notFound ? <Search aria-hidden="true" /> : <TriangleAlert aria-hidden="true" />}</div>
        <h1>{notFound ? 'Setup Not Found' : 'Something Went Wrong'}</h1>
        <p className="muted">{notFound ? 'This setup was removed, or the link never existed.' : error instanceof Error ? error.message : 'Failed to load the setup.'}</p>
        <Link to="/community" className="btn btn-primary">Back to Community</Link>
      </div>
    )
  }
  return <SetupView setup={data} mutate={mutate} />
}
