import { useEffect, useState } from 'react'
import { Link, useNavigate, useSearchParams } from 'react-router-dom'
import { useAuth } from '@/lib/auth'
import { ForgotPasswordForm } from '@/features/auth/components/ForgotPasswordForm'
import { LoginForm } from '@/features/auth/components/LoginForm'
import { safeRedirect } from '@/lib/safeRedirect'
import { usePageTitle } from '@/lib/usePageTitle'

/**
 * Where protected pages send signed-out visitors; back to where they came from after.
 * 'Forgot Password?' switches to the reset-request view, 'Back to Login' returns (spec 000 §2).
 */
export default function Login() {
  usePageTitle('Log In')
  const { user, openAuth } = useAuth()
  const [params] = useSearchParams()
  const navigate = useNavigate()
  const target = safeRedirect(params.get('redirect'), '/profile')
  // Opened directly (no page to go back to), it is a plain login page.
  const direct = !params.get('redirect')
  const [view, setView] = useState<'login' | 'forgot'>('login')

  useEffect(() => {
    if (user) navigate(target, { replace: true })
  }, [user, target, navigate])

  return (
    <div className="container page-narrow" style={{ maxWidth: 460 }}>
      {view === 'login' ? (
        <div className="card stack">
          <h1 style={{ fontSize: '1.8rem' }}>{direct ? 'Log In' : 'Sign in to continue'}</h1>
          <p className="muted">{direct ? 'Log in to your SetupIQ account.' : 'Log in to your SetupIQ account to open this page.'}</p>
          <LoginForm onDone={() => navigate(target, { replace: true })} onForgot={() => setView('forgot')} />
          <p className="muted center">
            New here?{' '}
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => openAuth('register')}>Create a free account</button>
          </p>
          <p className="center"><Link to="/">Back to home</Link></p>
        </div>
      ) : (
        <div className="card stack">
          <h1 style={{ fontSize: '1.8rem' }}>Reset your password</h1>
          <p className="muted">Enter your account&apos;s email and we&apos;ll send you a reset link.</p>
          <ForgotPasswordForm onBack={() => setView('login')} />
        </div>
      )}
    </div>
  )
}
