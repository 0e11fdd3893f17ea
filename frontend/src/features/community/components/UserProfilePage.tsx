import { Link } from 'react-router-dom'
import { Search, TriangleAlert } from 'lucide-react'
import { ApiError } from '@/api/client'
import { Avatar } from '@/components/ui/Avatar'
import { usePageTitle } from '@/lib/usePageTitle'
import { patchList, useUserProfile, type UserProfile } from '../api'
import { monthYear, oneDecimal } from '../logic'
import { SetupSkeletons } from './CommunityPage'
import { ProBadge, SetupCard } from './SetupCard'
import { useSetupActions } from './useSetupActions'

function RecentPosts({ profile, name, mutate }: { profile: UserProfile; name: string; mutate: ReturnType<typeof useUserProfile>['mutate'] }) {
  const actions = useSetupActions({
    setups: profile.recentPosts,
    snapshot: () => profile,
    restore: (before) => void mutate(before as UserProfile, { revalidate: false }),
    patch: (id, change) =>
      void mutate(
        (p) => p && { ...p, recentPosts: patchList(p.recentPosts, id, change) },
        { revalidate: false },
      ),
  })
  // The dialogs keep their place either way: deleting the last post empties the list while
  // its confirmation is still open.
  return (
    <>
      {profile.recentPosts.length === 0 ? (
        <p className="muted">{name} hasn't posted anything yet.</p>
      ) : (
        <ul className="grid history-grid plain-list" data-testid="recent-posts">
          {profile.recentPosts.map((setup) => (
            <li key={setup.id}>
              <SetupCard
                setup={setup}
                signedIn={actions.signedIn}
                own={actions.viewerId === setup.uploaderId}
                onOpen={() => actions.openSetup(setup)}
                onVote={(value) => void actions.vote(setup, value)}
                voteRefusal={actions.voteRefusal(setup.id)}
              />
            </li>
          ))}
        </ul>
      )}
      {actions.dialogs}
    </>
  )
}

/** A member's public profile (spec 2 §2 "/user/:userId"). */
export function UserProfilePage({ userId }: { userId: number }) {
  const { data, error, isLoading, mutate } = useUserProfile(userId)
  const notFound = !data && !isLoading && (!(Number.isFinite(userId) && userId > 0) || (error instanceof ApiError && error.status === 404))
  const shownName = data ? data.user.displayName || data.user.username : null
  // The one title owner of /user/:userId: the name is known only here (spec 2 §2 "{name}'s Profile").
  usePageTitle(shownName ? `${shownName}'s Profile` : notFound ? 'User Not Found' : 'Profile')
  if (isLoading && !data) return <SetupSkeletons count={3} />
  if (!data) {
    return (
      <div className="state card" role="alert">
        <div className="state-icon" aria-hidden="true">{notFound ? <Search aria-hidden="true" /> : <TriangleAlert aria-hidden="true" />}</div>
        <h1>{notFound ? 'User Not Found' : 'Something Went Wrong'}</h1>
        <p className="muted">{notFound ? "This user doesn't exist or has been removed." : error instanceof Error ? error.message : 'Failed to fetch user profile.'}</p>
        <Link to="/community" className="btn btn-primary">Back to Community</Link>
      </div>
    )
  }
  const { user, stats, rigPage } = data
  const name = user.displayName || user.username
  return (
    <div className="stack">
      <header className="row profile-head">
        <Avatar username={user.username} src={user.profilePicture} isPro={user.isPro} large />
        <div className="stack">
          {/* The name once: the title, with the Pro badge beside it. */}
          <div className="row">
            <h1>{`${name}'s Profile`}</h1>
            {user.isPro && <ProBadge />}
          </div>
          <p className="muted">@{user.username} · Member since {monthYear(user.createdAt)}</p>
          {rigPage.enabled && rigPage.slug && (
            <a className="btn btn-secondary btn-sm" href={`/rig/${encodeURIComponent(rigPage.slug)}`}>View RigPage</a>
          )}
        </div>
      </header>
      <div className="grid cm-stats" data-testid="profile-stats">
        <div className="card stack cm-stat"><span className="muted">Total Posts</span><strong className="cm-stat-value">{stats.totalPosts}</strong></div>
        <div className="card stack cm-stat"><span className="muted">Total Upvotes</span><strong className="cm-stat-value">{stats.totalLikes}</strong></div>
        <div className="card stack cm-stat"><span className="muted">Average SetupIQ Score</span><strong className="cm-stat-value">{oneDecimal(stats.averageScore)}</strong></div>
      </div>
      <section className="stack">
        <h2>Recent Posts</h2>
        <RecentPosts profile={data} name={name} mutate={mutate} />
      </section>
    </div>
  )
}
