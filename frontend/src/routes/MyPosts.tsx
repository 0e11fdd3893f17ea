import { MyPostsPage } from '@/features/community/components/MyPostsPage'

/** My Community Posts (spec §2). */
export default function MyPosts() {
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
