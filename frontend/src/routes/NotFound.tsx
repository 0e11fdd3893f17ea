import { Link } from 'react-router-dom'
import { Gamepad2 } from 'lucide-react'
import { usePageTitle } from '@/lib/usePageTitle'

export default function NotFound() {
  usePageTitle('Not Found')
  return (
    <div className="container state">
      <div className="state-icon" aria-hidden="true"><Gamepad2 aria-hidden="true" /></div>
      <h1>Not Found</h1>
      <p className="muted">The page you are looking for does not exist.</p>
      <Link to="/" className="btn btn-primary">Go Home</Link>
    </div>
  )
}
