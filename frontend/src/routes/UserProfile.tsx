import { useParams } from 'react-router-dom'
import { UserProfilePage } from '@/features/community/components/UserProfilePage'

/** A member's public profile (spec 2 §2). */
export default function UserProfile() {
  const { userId } = useParams()
  return (
    <div className="container stack">
      <UserProfilePage key={userId} userId={Number(userId)} />
    </div>
  )
}
