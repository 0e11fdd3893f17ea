import { Skeleton } from '@/components/ui/Skeleton'
import { pluralFormatted } from '@/lib/plural'
import { useHealthReport, useSummary } from '../api'
import { formatCount, formatUsd, type Period } from '../logic'

function StatCard({ label, value, hint }: { label: string; value: string | null; hint?: string | undefined }) {
  return (
    <div className="card admin-stat">
      <dt className="muted">{label}</dt>
      <dd className="admin-stat-value">{value ?? <Skeleton height={32} width="60%" />}</dd>
      {hint && <dd className="hint">{hint}</dd>}
    </div>
  )
}

/** Total Clicks, Estimated Revenue, Active Affiliate Links, Unique Users (§2). */
export function StatCards({ period }: { period: Period }) {
  const summary = useSummary(period)
  const health = useHealthReport()
  const s = summary.data
  const failed = '—'
  return (
    <dl className="grid admin-stats" data-testid="admin-stats" aria-busy={summary.isLoading || health.isLoading}>
      <StatCard label="Total Clicks" value={s ? formatCount(s.totalClicks) : summary.error ? failed : null} hint={s ? pluralFormatted(s.uniqueSessions, formatCount(s.uniqueSessions), 'session') : undefined} />
      <StatCard label="Estimated Revenue" value={s ? formatUsd(s.estimatedRevenue) : summary.error ? failed : null} hint="USD" />
      <StatCard
        label="Active Affiliate Links"
        value={health.data ? formatCount(health.data.active) : health.error ? failed : null}
        hint={health.data ? `of ${pluralFormatted(health.data.total, formatCount(health.data.total), 'link')}` : undefined}
      />
      <StatCard label="Unique Users" value={s ? formatCount(s.uniqueUsers) : summary.error ? failed : null} />
    </dl>
  )
}
