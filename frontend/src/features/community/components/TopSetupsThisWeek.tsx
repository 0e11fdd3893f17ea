import { plural } from '@/lib/plural'
import useSWR from 'swr'
import { Link } from 'react-router-dom'
import { fetchSetups } from '../feed'
import { winnerMark } from '../logic'
import { ProBadge } from './SetupCard'

/** The home page's glimpse of the community: this week's top 3 (nothing when there are none). */
export function TopSetupsThisWeek() {
  const { data } = useSWR(['community-home-top'], () => fetchSetups('week', 'top', 0, 3), { revalidateOnFocus: false, shouldRetryOnError: false })
  const setups = data?.setups ?? []
  if (setups.length === 0) return null
  return (
    <div className="stack" data-testid="home-top-setups">
      <h3>This Week&apos;s Top Setups</h3>
      <ul className="grid grid-3 plain-list">
        {setups.map((setup, i) => {
          const mark = winnerMark(i, 'week', 'top', setup.score)
          const photo = setup.thumbnails[0] ?? setup.imageUrl
          const title = setup.title || 'Untitled setup'
          return (
            <li key={setup.id} className={`card stack cm-card${mark ? ` cm-winner cm-${mark.medal}` : ''}`}>
              {mark && <span className={`badge cm-medal cm-medal-${mark.medal}`}>#{mark.rank} {mark.label}</span>}
              {photo && <img className="history-thumb" src={photo} alt="" loading="lazy" />}
              <Link to="/community" className="card-title">{title}</Link>
              <span className="row cm-meta">
                <Link to={`/user/${setup.uploaderId}`} className="text-link">{setup.uploaderDisplayName || setup.uploaderUsername}</Link>
                {setup.uploaderIsPro && <ProBadge />}
                <span className="muted">{plural(setup.score, 'upvote')}</span>
              </span>
            </li>
          )
        })}
      </ul>
    </div>
  )
}
