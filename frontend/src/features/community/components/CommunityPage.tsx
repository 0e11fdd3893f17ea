import { plural } from '@/lib/plural'
import * as Tabs from '@radix-ui/react-tabs'
import { useState } from 'react'
import { Link } from 'react-router-dom'
import { Monitor, TriangleAlert, Trophy } from 'lucide-react'
import { Avatar } from '@/components/ui/Avatar'
import { Skeleton } from '@/components/ui/Skeleton'
import { useAuth } from '@/lib/auth'
import { patchPages, useLeaderboard, useSetups } from '../api'
import { FILTERS, SORTS, winnerMark, type Filter, type Sort } from '../logic'
import { PublishDialog } from './PublishDialog'
import { ProBadge, SetupCard } from './SetupCard'
import { useSetupActions } from './useSetupActions'

export function SetupSkeletons({ count }: { count: number }) {
  return (
    <div className="grid history-grid" role="status" aria-busy="true" data-testid="setup-skeletons">
      <span className="sr-only">Loading setups</span>
      {Array.from({ length: count }, (_, i) => (
        <div key={i} className="card stack">
          <Skeleton height={160} />
          <Skeleton height={18} width="60%" />
          <Skeleton height={14} width="40%" />
        </div>
      ))}
    </div>
  )
}

function FilterBar({ filter, onFilter, sort, onSort }: { filter: Filter; onFilter: (f: Filter) => void; sort?: Sort; onSort?: (s: Sort) => void }) {
  return (
    <div className="row cm-filters">
      <div className="row" role="group" aria-label="Period">
        {FILTERS.map((f) => (
          <button key={f.value} type="button" className={`btn btn-sm ${filter === f.value ? 'btn-primary' : 'btn-secondary'}`} aria-pressed={filter === f.value} onClick={() => onFilter(f.value)}>
            {f.label}
          </button>
        ))}
      </div>
      {sort && onSort && (
        <label className="row">
          <span>Sort by</span>
          <select className="input" value={sort} onChange={(e) => onSort(e.target.value as Sort)}>
            {SORTS.map((s) => <option key={s.value} value={s.value}>{s.label}</option>)}
          </select>
        </label>
      )}
    </div>
  )
}

function uniqueById<T extends { id: number }>(items: T[]): T[] {
  const seen = new Set<number>()
  return items.filter((item) => !seen.has(item.id) && seen.add(item.id))
}

function SetupsTab({ filter, sort }: { filter: Filter; sort: Sort }) {
  const { data, error, isLoading, size, setSize, mutate, isValidating } = useSetups(filter, sort)
  // Offset pages may overlap when posts arrive meanwhile: each setup once.
  const setups = uniqueById(data?.flatMap((p) => p.setups) ?? [])
  const actions = useSetupActions({
    setups,
    snapshot: () => data,
    restore: (before) => void mutate(before as typeof data, { revalidate: false }),
    patch: (id, change) => void mutate((pages) => patchPages(pages, id, change), { revalidate: false }),
    onReported: () => void mutate((pages) => pages?.map((page, i) => (i === 0 ? { ...page, reportedByYou: page.reportedByYou + 1 } : page)), { revalidate: false }),
  })
  if (isLoading && !data) return <SetupSkeletons count={6} />
  if (error && !data) {
    return (
      <div className="state card" role="alert">
        <div className="state-icon" aria-hidden="true"><TriangleAlert aria-hidden="true" /></div>
        <h2>Oops! Something went wrong.</h2>
        <p className="muted">Could not load community setups. Please try again later.</p>
      </div>
    )
  }
  const hasMore = data?.[data.length - 1]?.pagination.hasMore ?? false
  const loadingMore = isValidating && size > (data?.length ?? 0)
  // The dialogs keep their place either way: deleting the last setup empties the list while
  // its confirmation is still open.
  return (
    <>
      {setups.length === 0 ? (
        <div className="state card">
          <div className="state-icon" aria-hidden="true"><Monitor aria-hidden="true" /></div>
          <h2>No Setups Found</h2>
          {(data?.[0]?.reportedByYou ?? 0) > 0 ? (
            <p className="muted">Setups you report are hidden from your feed, and there are no others here yet.</p>
          ) : (
            <p className="muted">Be the first to share your setup with the community.</p>
          )}
        </div>
      ) : (
        <>
          <ul className="grid history-grid plain-list" data-testid="community-setups">
            {setups.map((setup, i) => (
              <li key={setup.id}>
                <SetupCard
                  setup={setup}
                  signedIn={actions.signedIn}
                  own={actions.viewerId === setup.uploaderId}
                  winner={winnerMark(i, filter, sort, setup.score)}
                  onOpen={() => actions.openSetup(setup)}
                  onVote={(value) => void actions.vote(setup, value)}
                  voteRefusal={actions.voteRefusal(setup.id)}
                />
              </li>
            ))}
          </ul>
          {hasMore && (
            <div className="center">
              <button type="button" className="btn btn-secondary" onClick={() => void setSize(size + 1)} disabled={loadingMore}>
                {loadingMore ? 'Loading...' : 'Load more'}
              </button>
            </div>
          )}
        </>
      )}
      {actions.dialogs}
    </>
  )
}

function LeaderboardTab({ filter }: { filter: Filter }) {
  const { data, error, isLoading } = useLeaderboard(filter)
  if (isLoading && !data) return <SetupSkeletons count={3} />
  if (error && !data) return <p className="form-error" role="alert">Error: {error instanceof Error ? error.message : 'Failed to fetch community leaderboard.'}</p>
  if (!data || data.length === 0) {
    return (
      <div className="state card">
        <div className="state-icon" aria-hidden="true"><Trophy aria-hidden="true" /></div>
        <p>No top users found for this period. Be the first!</p>
      </div>
    )
  }
  return (
    <ol className="plain-list stack" data-testid="leaderboard">
      {data.map((leader, i) => (
        <li key={leader.userId} className="card row cm-leader">
          <span className="cm-rank" aria-label={`Rank ${i + 1}`}>#{i + 1}</span>
          <Avatar username={leader.username} email={leader.email} src={leader.profilePicture} isPro={leader.isPro} />
          <span className="stack">
            <span className="row">
              <Link to={`/user/${leader.userId}`} className="text-link">{leader.displayName || leader.username}</Link>
              {leader.isPro && <ProBadge />}
            </span>
            <span className="muted">{leader.totalScore} {leader.totalScore === 1 ? 'point' : 'points'} · {leader.setupCount} {leader.setupCount === 1 ? 'setup' : 'setups'}</span>
          </span>
          {leader.topSetupImageUrl && (
            <span className="row cm-leader-top">
              <img className="cm-leader-thumb" src={leader.topSetupImageUrl} alt={`${leader.displayName || leader.username}'s best setup`} />
              {leader.topSetupScore != null && <span className="muted">Best setup: {plural(leader.topSetupScore, 'point')}</span>}
            </span>
          )}
        </li>
      ))}
    </ol>
  )
}

/** Community (spec §2): the setups and the leaderboard, by period. */
export function CommunityPage() {
  const { user } = useAuth()
  const [tab, setTab] = useState('setups')
  const [filter, setFilter] = useState<Filter>('all')
  const [sort, setSort] = useState<Sort>('top')
  const [publishing, setPublishing] = useState(false)
  return (
    <div className="container stack">
      <header className="row cm-head">
        <div>
          <h1>Community Setups</h1>
          <p className="muted">Browse, vote and share gaming setups rated by SetupIQ.</p>
        </div>
        <button type="button" className="btn btn-primary" disabled={!user} title={user ? undefined : 'Log in to upload your setup'} onClick={() => setPublishing(true)}>
          Upload Your Setup
        </button>
      </header>
      <Tabs.Root value={tab} onValueChange={setTab}>
        <Tabs.List className="tabs-list" aria-label="Community">
          <Tabs.Trigger className="tabs-trigger" value="setups">Setups</Tabs.Trigger>
          <Tabs.Trigger className="tabs-trigger" value="leaderboard">Leaderboard</Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="setups" className="stack">
          <FilterBar filter={filter} onFilter={setFilter} sort={sort} onSort={setSort} />
          <SetupsTab filter={filter} sort={sort} />
        </Tabs.Content>
        <Tabs.Content value="leaderboard" className="stack">
          <FilterBar filter={filter} onFilter={setFilter} />
          <LeaderboardTab filter={filter} />
        </Tabs.Content>
      </Tabs.Root>
      {user && <PublishDialog open={publishing} onOpenChange={setPublishing} />}
    </div>
  )
}
