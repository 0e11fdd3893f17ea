import { Link, useSearchParams } from 'react-router-dom'
import useSWR from 'swr'
import { Ban, MailX } from 'lucide-react'
import { messageOf } from '@/api/client'
import { Skeleton } from '@/components/ui/Skeleton'
import { StateMessage } from '@/components/ui/StateMessage'
import { unsubscribeDigest } from '@/features/community/api'
import { usePageTitle } from '@/lib/usePageTitle'

/** /unsubscribe?token=…: the digest's one-click unsubscribe link; opening it unsubscribes. */
export default function Unsubscribe() {
  usePageTitle('Unsubscribe')
  const [params] = useSearchParams()
  const token = params.get('token')
  // Once per visit: a second answer would say the (now used) link is unknown.
  const result = useSWR(token ? ['unsubscribe', token] : null, () => unsubscribeDigest(token ?? ''), {
    dedupingInterval: 60 * 60_000,
    shouldRetryOnError: false,
    revalidateOnFocus: false,
    revalidateOnReconnect: false,
    revalidateIfStale: false,
  })
  if (token && result.isLoading) {
    return (
      <div className="container page-narrow stack" aria-busy="true">
        <h1 style={{ fontSize: '1.8rem' }}>Unsubscribing</h1>
        <Skeleton height={44} />
      </div>
    )
  }
  if (result.data) {
    return (
      <StateMessage icon={MailX} title="You're Unsubscribed" text="You will no longer get the daily digest. You can turn it on again on your notifications page.">
        <Link to="/notifications" className="btn btn-secondary">Notifications</Link>
      </StateMessage>
    )
  }
  const why = token ? messageOf(result.error, 'Failed to unsubscribe.') : 'No unsubscribe token found. Please open the whole link from the e-mail.'
  return (
    <StateMessage icon={Ban} title="Unsubscribe Failed" text={why}>
      <Link to="/notifications" className="btn btn-secondary">Notifications</Link>
    </StateMessage>
  )
}
