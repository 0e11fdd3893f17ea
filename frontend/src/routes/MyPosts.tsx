import { MyPostsPage } from '@/features/community/components/MyPostsPage'
import { usePageTitle } from '@/lib/usePageTitle'

/** My Community Posts (spec §2). */
export default function MyPosts() {
  usePageTitle('My Posts')
  return (
    <div className="container stack">
      <header>
        <h1>My Community Posts</h1>
        <p className="muted">How your shared setups are doing.</p>
      </header>
      <MyPostsPage />
    </div>
  )
}
