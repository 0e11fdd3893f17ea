import { useParams } from 'react-router-dom'
import { SetupPage } from '@/features/community/components/SetupPage'

/** One community setup, its votes and its comments (the page a notification links to). */
export default function CommunitySetup() {
  const { setupId } = useParams()
  return (
    <div className="container stack">
      <SetupPage key={setupId} setupId={Number(setupId)} />
    </div>
  )
}
