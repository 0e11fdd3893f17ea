import { Link } from 'react-router-dom'
import { ChevronDown, ChevronUp, Image, Link2, MessageCircle } from 'lucide-react'
import { plural } from '@/lib/plural'
import { formatScore } from '@/lib/ratingBands'
import type { CommunitySetup } from '../api'
import type { VoteValue, WinnerMark } from '../logic'
import { GearList } from './GearList'

interface VoteButtonsProps {
  setup: Pick<CommunitySetup, 'id' | 'score' | 'userVote'>
  signedIn: boolean
  own: boolean
  onVote: (value: VoteValue) => void
  /** Why the server refused the member's vote (an unverified address), shown under the buttons. */
  refusal?: string | null
}

/**
 * Up and down votes with the score between; visitors are asked to log in. The buttons sit
 * in one box whether or not a refusal shows under them, so the one just pressed keeps focus.
 */
export function VoteButtons({ setup, signedIn, own, onVote, refusal }: VoteButtonsProps) {
  const title = (label: string) => (!signedIn ? 'Login to vote' : own ? 'You cannot vote on your own setup' : label)
  return (
    <div className="cm-vote-box">
      <div className="row cm-votes" role="group" aria-label="Votes">
        <button
          type="button"
          className={`icon-btn cm-vote${setup.userVote === 1 ? ' cm-vote-active' : ''}`}
          title={title('Upvote')}
          aria-label={title('Upvote')}
          aria-pressed={setup.userVote === 1}
          disabled={signedIn && own}
          onClick={() => onVote(1)}
        >
          <ChevronUp aria-hidden="true" />
        </button>
        <span className="cm-score" data-testid="setup-score" aria-label={plural(setup.score, 'upvote')}>{setup.score}</span>
        <button
          type="button"
          className={`icon-btn cm-vote${setup.userVote === -1 ? ' cm-vote-active' : ''}`}
          title={title('Downvote')}
          aria-label={title('Downvote')}
          aria-pressed={setup.userVote === -1}
          disabled={signedIn && own}
          onClick={() => onVote(-1)}
        >
          <ChevronDown aria-hidden="true" />
        </button>
      </div>
      {refusal && <p className="field-error" role="alert">{refusal}</p>}
    </div>
  )
}

export function ProBadge() {
  return <span className="badge badge-pro">PRO</span>
}

/** The uploader's RigPage, when it is live and they chose to show it on the community. */
export function RigPageBadge({ setup }: { setup: CommunitySetup }) {
  if (!setup.uploaderShowsRigPage || !setup.uploaderRigPageSlug) return null
  const name = setup.uploaderDisplayName || setup.uploaderUsername
  return (
    <a className="badge badge-rigpage" href={`/rig/${encodeURIComponent(setup.uploaderRigPageSlug)}`} aria-label={`RigPage of ${name}`}>
      <Link2 className="inline-icon" aria-hidden="true" /> RigPage
    </a>
  )
}

interface SetupCardProps {
  setup: CommunitySetup
  signedIn: boolean
  own: boolean
  winner?: WinnerMark | null
  onOpen: () => void
  onVote: (value: VoteValue) => void
  voteRefusal?: string | null
}

/** One setup of the grid: photo, title, uploader, score and votes. */
export function SetupCard({ setup, signedIn, own, winner, onOpen, onVote, voteRefusal }: SetupCardProps) {
  const title = setup.title || 'Untitled setup'
  const photo = setup.thumbnails[0] ?? setup.imageUrl ?? setup.images[0]
  return (
    <article className={`card stack cm-card${winner ? ` cm-winner cm-${winner.medal}` : ''}`} data-testid="setup-card">
      {winner && (
        <span className={`badge cm-medal cm-medal-${winner.medal}`} data-testid="winner-mark">
          #{winner.rank} {winner.label}
        </span>
      )}
      <button type="button" className="cm-photo-btn" onClick={onOpen} aria-label={`View ${title}`}>
        {setup.beforeImageIndex !== null && setup.beforeImageIndex !== undefined && <span className="badge cm-photo-label" data-testid="photo-label">Before &amp; after</span>}
        {photo ? <img className="history-thumb" src={photo} alt="" loading="lazy" /> : <div className="history-thumb history-thumb-empty" aria-hidden="true"><Image aria-hidden="true" /></div>}
      </button>
      <h3 className="card-title">{title}</h3>
      <div className="row cm-meta">
        <Link to={`/user/${setup.uploaderId}`} className="text-link">
          {setup.uploaderDisplayName || setup.uploaderUsername}
        </Link>
        {setup.uploaderIsPro && <ProBadge />}
        <RigPageBadge setup={setup} />
        {setup.analysis && <span className="muted">{formatScore(setup.analysis.overallRating)}/10</span>}
      </div>
      <GearList gear={setup.gear} limit={3} />
      <div className="row cm-card-foot">
        <VoteButtons setup={setup} signedIn={signedIn} own={own} onVote={onVote} refusal={voteRefusal} />
        <button type="button" className="btn btn-ghost btn-sm cm-comment-count" onClick={onOpen} aria-label={`${plural(setup.commentCount, 'comment')} on ${title}`}>
          <MessageCircle aria-hidden="true" size={16} /> {setup.commentCount}
        </button>
      </div>
    </article>
  )
}
