import { Link } from 'react-router-dom'

/** Pages whose features arrive with later releases (community, credits, RigPage, …). */
export default function ComingSoon({ title }: { title: string }) {
  return (
    <div className="container state">
      <div className="emoji" aria-hidden="true">🚧</div>
      <h1>{title}</h1>
      <p className="muted">This part of SetupIQ is being built and opens soon.</p>
      <Link to="/" className="btn btn-secondary">Back to home</Link>
    </div>
  )
}
