import { useEffect } from 'react'
import { Link, useNavigate, useSearchParams } from 'react-router-dom'
import { useAuth } from '@/app/auth'
import { LoginForm } from '@/features/auth/components/LoginForm'
import { safeRedirect } from '@/lib/safeRedirect'

/** Where protected pages send signed-out visitors; back to where they came from after. */
export default function Login() {
  const { user, openAuth } = useAuth()
  const [params] = useSearchParams()
  const navigate = useNavigate()
  const target = safeRedirect(params.get('redirect'), '/profile')

  useEffect(() => {
    if (user) navigate(target, { replace: true })
  }, [user, target, navigate])

  return (
    <div className="container page-narrow" style={{ maxWidth: 460 }}>
      <div className="card stack">
        <h1 style={{ fontSize: '1.8rem' }}>Sign in to continue</h1>
        <p className="muted">Log in to your SetupIQ account to open this page.</p>
        <LoginForm onDone={() => navigate(target, { replace: true })} />
        <p className="muted center">
          New here?{' '}
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => openAuth('register')}>Create a free account</button>
        </p>
        <p className="center"><Link to="/">Back to home</Link></p>
      </div>
    </div>
  )
}
