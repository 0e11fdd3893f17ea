import { toast } from '@/lib/toast'
import { Skeleton } from '@/components/ui/Skeleton'
import { QR_PATH, useStats } from '../api'

/** The page's address: its QR code and a button that copies it. */
export function SharePanel({ slug, publicUrl }: { slug: string; publicUrl: string }) {
  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard')
      await navigator.clipboard.writeText(publicUrl)
      toast.success('Link copied to clipboard!')
    } catch {
      toast.error('Could not copy the link. Please copy it by hand.')
    }
  }
  return (
    <div className="rp-share">
      {/* The query only changes the address when the slug does, so a new code loads. */}
      <img src={`${QR_PATH}?slug=${encodeURIComponent(slug)}`} alt={`QR code for ${publicUrl}`} width={160} height={160} className="rp-qr" />
      <div className="stack rp-share-text">
        <p className="rp-url" data-testid="public-url">{publicUrl}</p>
        <div className="row">
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => void copy()}>Copy link</button>
          <a href={`${QR_PATH}?slug=${encodeURIComponent(slug)}`} download={`rigpage-${slug}-qr.svg`} className="btn btn-ghost btn-sm">Download QR code</a>
        </div>
        <p className="hint">Print it or put it on your stream overlay.</p>
      </div>
    </div>
  )
}

function percent(rate: number) {
  return `${(rate * 100).toFixed(1)}%`
}

/** Visitors' views and clicks of the last 30 days (the owner's own visits never count). */
export function StatsPanel() {
  const { data, error } = useStats(true)
  if (error) return <p className="form-error" role="alert">Could not load your RigPage stats.</p>
  if (!data) {
    return (
      <div role="status" aria-busy="true">
        <span className="sr-only">Loading stats</span>
        <Skeleton height={72} />
      </div>
    )
  }
  return (
    <div className="stack">
      <p className="hint">Last {data.days} days</p>
      <dl className="rp-stats">
        <div>
          <dt>Views</dt>
          <dd data-testid="stat-views">{data.views}</dd>
        </div>
        <div>
          <dt>Clicks</dt>
          <dd data-testid="stat-clicks">{data.clicks}</dd>
        </div>
        <div>
          <dt>Click-through rate</dt>
          <dd data-testid="stat-ctr">{percent(data.clickThroughRate)}</dd>
        </div>
        <div>
          <dt>Top link</dt>
          <dd data-testid="stat-top-link">{data.topLink ? `${data.topLink.label} (${data.topLink.clicks} ${data.topLink.clicks === 1 ? 'click' : 'clicks'})` : 'No clicks yet'}</dd>
        </div>
      </dl>
    </div>
  )
}
