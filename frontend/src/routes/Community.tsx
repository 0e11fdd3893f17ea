import { CommunityPage } from '@/features/community/components/CommunityPage'
import { usePageTitle } from '@/lib/usePageTitle'

/** Community (spec §2). */
export default function Community() {
  usePageTitle('Community')
  return <CommunityPage />
}
