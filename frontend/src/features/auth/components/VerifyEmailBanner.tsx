import { useAuth } from '@/lib/auth'
import { ResendVerification } from './ResendVerification'

/**
 * A quiet line under the header while the signed-in user's address is unverified (the
 * session's `emailVerified`): the product works meanwhile, but an address proves nothing
 * until its link is followed.
 */
export function VerifyEmailBanner() {
  const { user } = useAuth()
  if (!user || user.emailVerified) return null
  return (
    <div className="verify-banner" role="region" aria-label="E-mail verification">
      <p>
        Please verify your e-mail address: we sent a link to <strong>{user.email}</strong>.
      </p>
      <ResendVerification />
    </div>
  )
}
