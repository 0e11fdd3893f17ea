import { useEffect } from 'react'
import { Link, useSearchParams } from 'react-router-dom'
import useSWR from 'swr'
import { Ban, CircleCheck, Link2Off } from 'lucide-react'
import { messageOf } from '@/api/client'
import { Skeleton } from '@/components/ui/Skeleton'
import { StateMessage } from '@/components/ui/StateMessage'
import { useAuth } from '@/lib/auth'
import { verifyEmail } from '@/features/auth/api'
import { ResendVerification } from '@/features/auth/components/ResendVerification'
import { usePageTitle } from '@/lib/usePageTitle'

/** /verify-email?token=…: follows the link from the verification e-mail and says what happened. */
export default function VerifyEmail() {
  usePageTitle('Verify E-mail')
  const [params] = useSearchParams()
  const token = params.get('token')
  const { user, setUser } = useAuth()
  // The token works once: the answer is kept for the visit, never asked for again.
  const verification = useSWR(token ? ['verify-email', token] : null, () => verifyEmail(token ?? ''), {
    dedupingInterval: 60 * 60_000,
    shouldRetryOnError: false,
    revalidateOnFocus: false,
    revalidateOnReconnect: false,
    revalidateIfStale: false,
  })
  const verified = verification.data
  // Only a browser signed in as the account is answered with it.
  const account = verified?.user

  // Signed in as that account: the session says so at once (the banner goes).
  useEffect(() => {
    if (account && user?.id === account.id && !user.emailVerified) setUser(account)
  }, [account, user, setUser])

  if (!token) {
    return (
      <StateMessage icon={Link2Off} title="Verify E-mail" text="No verification token found. Please open the whole link from the e-mail we sent you.">
        {user && !user.emailVerified && <ResendVerification className="btn btn-primary" />}
      </StateMessage>
    )
  }
  if (verification.isLoading) {
    return (
      <div className="container page-narrow stack" aria-busy="true">
        <h1 style={{ fontSize: '1.8rem' }}>Verifying Your E-mail</h1>
        <Skeleton height={44} />
      </div>
    )
  }
  if (verified) {
    return (
      <StateMessage
        icon={CircleCheck}
        title="E-mail Verified"
        text={account ? `Thank you: ${account.email} is verified.` : 'Thank you: the e-mail address is verified.'}
      >
        <Link to="/" className="btn btn-primary">Go Homepage</Link>
      </StateMessage>
    )
  }
  return (
    <StateMessage icon={Ban} title="Verification Failed" text={messageOf(verification.error, 'The e-mail address could not be verified. Please try again.')}>
      <div className="hero-actions">
        {user && !user.emailVerified && <ResendVerification className="btn btn-primary" />}
        <Link to="/" className="btn btn-secondary">Go Homepage</Link>
      </div>
    </StateMessage>
  )
}
