import { MySetupsGrid } from '@/features/analysis/components/HistoryGrids'

/** My Setups (spec 000 §2). */
export default function MySetups() {
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
