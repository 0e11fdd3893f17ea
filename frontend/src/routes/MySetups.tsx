import { useRef } from 'react'
import { MySetupsGrid } from '@/features/analysis/components/HistoryGrids'
import { useRefreshCommunity } from '@/features/community/api'
import { usePageTitle } from '@/lib/usePageTitle'

/** My Setups (spec 000 §2). */
export default function MySetups() {
  usePageTitle('My Setups')
  const heading = useRef<HTMLHeadingElement>(null)
  // A deleted analysis takes its community post with it.
  const refreshCommunity = useRefreshCommunity()
  return (
    <div className="container stack">
      <header>
        <h1 ref={heading} tabIndex={-1}>My Setups</h1>
        <p className="muted">Every setup you analysed, newest first.</p>
      </header>
      <MySetupsGrid onDeleted={refreshCommunity} focusAfterDelete={() => heading.current} />
    </div>
  )
}
