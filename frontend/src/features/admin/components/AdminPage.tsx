import { useId, useState } from 'react'
import { DEFAULT_PERIOD, PERIODS, type Period } from '../logic'
import { AdminLog } from './AdminLog'
import { BrandAssets } from './BrandAssets'
import { CategoryPerformance } from './CategoryPerformance'
import { ContactInbox } from './ContactInbox'
import { ClicksChart } from './ClicksChart'
import { LinkHealth } from './LinkHealth'
import { ModerationQueue, ReportedComments } from './ModerationQueue'
import { StatCards } from './StatCards'
import { TopProducts } from './TopProducts'
import { UsersPanel } from './UsersPanel'

/** The admin panel (spec §2): analytics of the chosen period, link health, moderation, users, contact messages, the log, brand assets. */
export function AdminPage() {
  const id = useId()
  const [period, setPeriod] = useState<Period>(DEFAULT_PERIOD)
  return (
    <div className="container stack admin-page">
      <header className="admin-head">
        <h1>Admin Panel</h1>
        <div className="field admin-period">
          <label htmlFor={`${id}-period`}>Period</label>
          <select id={`${id}-period`} className="input" value={period} onChange={(e) => setPeriod(e.target.value as Period)}>
            {PERIODS.map((p) => (
              <option key={p.value} value={p.value}>{p.label}</option>
            ))}
          </select>
        </div>
      </header>
      <StatCards period={period} />
      <ClicksChart period={period} />
      <div className="grid admin-tables">
        <TopProducts period={period} />
        <CategoryPerformance period={period} />
      </div>
      <LinkHealth />
      <ModerationQueue />
      <ReportedComments />
      <UsersPanel />
      <ContactInbox />
      <AdminLog />
      <BrandAssets />
    </div>
  )
}
