import { CommunityPage } from '@/features/community/components/CommunityPage'

/** Community (spec §2). */
export default function Community() {
  return <CommunityPage />
}
