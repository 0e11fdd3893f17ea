import { MySetupsGrid } from '@/features/analysis/components/HistoryGrids'
import { usePageTitle } from '@/lib/usePageTitle'

/** My Setups (spec 000 §2). */
export default function MySetups() {
  usePageTitle('My Setups')
  return (
    <div className="container stack">
      <header>
        <h1>My Setups</h1>
        <p className="muted">Every setup you analysed, newest first.</p>
      </header>
      <MySetupsGrid />
    </div>
  )
}
