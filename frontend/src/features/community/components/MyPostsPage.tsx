import { useId, useState } from 'react'
import { Link } from 'react-router-dom'
import { Camera, Image, LockKeyhole, TriangleAlert } from 'lucide-react'
import { plural } from '@/lib/plural'
import { Modal } from '@/components/ui/Modal'
import { useAuth } from '@/lib/auth'
import { shortDate } from '@/lib/relativeTime'
import { useMyPosts, type MyPost } from '../api'
import { oneDecimal } from '../logic'
import { SetupSkeletons } from './CommunityPage'

function Stat({ label, value }: { label: string; value: string | number }) {
  return (
    <div className="card stack cm-stat">
      <span className="muted">{label}</span>
      <strong className="cm-stat-value">{value}</strong>
    </div>
  )
}

const HIDDEN_POST = 'Hidden from others until a moderator reviews the reports.'

/**
 * Marks a post that reports have hidden (`MyPostDto.hidden`). It sits inside the card's button,
 * whose label replaces its content, so the button points at it with `aria-describedby`.
 */
function HiddenBadge({ id }: { id: string }) {
  return (
    <span className="badge badge-warning" title={HIDDEN_POST}>
      <span aria-hidden="true">Hidden</span>
      <span id={id} className="sr-only">{HIDDEN_POST}</span>
    </span>
  )
}

function PostDialog({ post, onClose }: { post: MyPost | null; onClose: () => void }) {
  if (!post) return null
  const title = post.title || 'Untitled setup'
  return (
    <Modal open onOpenChange={(open) => !open && onClose()} title={title} wide>
      <div className="stack">
        {post.thumbnailUrl && <img className="cm-detail-photo" src={post.thumbnailUrl} alt={title} />}
        {post.description && <p>{post.description}</p>}
        <p className="muted">
          {plural(post.score, 'upvote')} · {plural(post.commentCount, 'comment')} · {post.imageCount} {post.imageCount === 1 ? 'photo' : 'photos'} · {shortDate(post.createdAt)}
          {post.hidden && ' · Hidden after reports'}
        </p>
        <Link to={`/community/setup/${post.id}`} className="text-link">Open the post</Link>
      </div>
    </Modal>
  )
}

/** My Community Posts (spec §2): the summary and the grid of the user's posts. */
export function MyPostsPage() {
  const badgeIds = useId()
  const hiddenBadgeId = (postId: number) => `${badgeIds}-hidden-${postId}`
  const { state, openAuth } = useAuth()
  const signedIn = state.status === 'authenticated'
  const { data, error, isLoading } = useMyPosts(signedIn)
  const [openId, setOpenId] = useState<number | null>(null)

  if (state.status === 'loading' || (signedIn && isLoading && !data)) return <SetupSkeletons count={3} />
  if (state.status === 'unauthenticated') {
    return (
      <div className="state card">
        <div className="state-icon" aria-hidden="true"><LockKeyhole aria-hidden="true" /></div>
        <h2>View Your Posts</h2>
        <p className="muted">Log in to see your community posts and how they perform.</p>
        <button type="button" className="btn btn-primary" onClick={() => openAuth('login')}>Log In</button>
      </div>
    )
  }
  if (error && !data) {
    return (
      <div className="state card" role="alert">
        <div className="state-icon" aria-hidden="true"><TriangleAlert aria-hidden="true" /></div>
        <h2>Error Fetching Posts</h2>
        <p className="muted">{error instanceof Error ? error.message : 'Failed to fetch post analytics.'}</p>
      </div>
    )
  }
  const posts = data?.posts ?? []
  const summary = data?.summary
  return (
    <div className="stack">
      <div className="grid cm-stats" data-testid="post-stats">
        <Stat label="Total Posts" value={summary?.totalPosts ?? 0} />
        <Stat label="Total Upvotes" value={summary?.totalUpvotes ?? 0} />
        <Stat label="Average SetupIQ Score" value={oneDecimal(summary?.averageScore)} />
        <Stat label="Best Post Score" value={summary?.bestPostScore ?? 0} />
      </div>
      {posts.length === 0 ? (
        <div className="state card">
          <div className="state-icon" aria-hidden="true"><Camera aria-hidden="true" /></div>
          <h2>No Posts Yet</h2>
          <p className="muted">Share your setup with the community to see it here.</p>
          <Link to="/community" className="btn btn-primary">Go to Community</Link>
        </div>
      ) : (
        <ul className="grid history-grid plain-list" data-testid="my-posts">
          {posts.map((post) => (
            <li key={post.id}>
              <button
                type="button"
                className="card card-hover stack cm-card"
                onClick={() => setOpenId(post.id)}
                aria-label={`View ${post.title || 'Untitled setup'}`}
                aria-describedby={post.hidden ? hiddenBadgeId(post.id) : undefined}
              >
                {post.thumbnailUrl ? <img className="history-thumb" src={post.thumbnailUrl} alt="" loading="lazy" /> : <div className="history-thumb history-thumb-empty" aria-hidden="true"><Image aria-hidden="true" /></div>}
                <span className="card-title">{post.title || 'Untitled setup'}</span>
                <span className="row cm-meta">
                  <span className="muted">{plural(post.score, 'upvote')} · {plural(post.commentCount, 'comment')} · <span data-testid="gear-clicks">{plural(post.gearClicks, 'gear click')}</span> · {shortDate(post.createdAt)}</span>
                  {post.hidden && <HiddenBadge id={hiddenBadgeId(post.id)} />}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <PostDialog post={posts.find((p) => p.id === openId) ?? null} onClose={() => setOpenId(null)} />
    </div>
  )
}
