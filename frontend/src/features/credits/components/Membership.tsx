import { lazy, Suspense, useState } from 'react'
import { useSWRConfig } from 'swr'
import useSWRMutation from 'swr/mutation'
import { toast } from '@/lib/toast'
import { Modal } from '@/components/ui/Modal'
import { messageOf } from '@/api/client'
import { useAuth } from '@/lib/auth'
import { cancelPro, PRO_KEY, resumePro, usePro, type ProState } from '../api'
import { longDate } from '../format'

const ProDialog = lazy(() => import('./ProDialog').then((m) => ({ default: m.ProDialog })))

/** What the member's Pro is, in words. */
export function membershipText(pro: ProState): string {
  const sub = pro.subscription
  if (sub?.status === 'past_due') return `Pro, ${sub.plan}: the renewal payment failed; your card will be tried again`
  const running = sub?.status === 'active' && sub.currentPeriodEnd
  if (running && sub.cancelAtPeriodEnd) return `Pro until ${longDate(sub.currentPeriodEnd!)} (cancelled)`
  if (running) return `Pro, ${sub.plan}: renews ${longDate(sub.currentPeriodEnd!)}`
  if (pro.grantedByAdmin) return 'Pro (granted by the team)'
  return 'Free'
}

/** The profile's Membership row: plan, renewal or end date, cancel and resume, or the upgrade. */
export function MembershipRow() {
  const { data: pro, error } = usePro()
  const { refreshSession } = useAuth()
  const { mutate } = useSWRConfig()
  // Both answer the new membership: it goes into the cache as it is, with no second read.
  const cancel = useSWRMutation(PRO_KEY, cancelPro, { populateCache: true, revalidate: false })
  const resume = useSWRMutation(PRO_KEY, resumePro, { populateCache: true, revalidate: false })
  const pending = cancel.isMutating || resume.isMutating
  const [buying, setBuying] = useState(false)
  const [confirmingCancel, setConfirmingCancel] = useState(false)

  const change = async (trigger: () => Promise<ProState>, done: string) => {
    try {
      await trigger()
      setConfirmingCancel(false)
      toast.success(done)
    } catch (failure) {
      toast.error(messageOf(failure, 'Could not change your subscription. Please try again.'))
    }
  }

  const sub = pro?.subscription
  // A renewal being retried (past due) can still be cancelled.
  const running = sub?.status === 'active' || sub?.status === 'past_due'
  return (
    <div className="info-row">
      <dt>Membership</dt>
      <dd className="row" data-testid="membership">
        <span>{error ? 'Unknown' : pro ? membershipText(pro) : '…'}</span>
        {pro && running && !sub.cancelAtPeriodEnd && (
          <button type="button" className="btn btn-ghost btn-sm" disabled={pending} onClick={() => setConfirmingCancel(true)}>
            Cancel Subscription
          </button>
        )}
        {pro && running && !sub.cancelAtPeriodEnd && (
          <Modal
            open={confirmingCancel}
            onOpenChange={(open) => !open && setConfirmingCancel(false)}
            title="Cancel your Pro subscription?"
            description={`It will not renew. You keep Pro until ${longDate(sub.currentPeriodEnd!)}, then your account is Free again. You can resume before then.`}
            dismissible={!pending}
          >
            <div className="row dialog-actions">
              <button type="button" className="btn btn-secondary" onClick={() => setConfirmingCancel(false)} disabled={pending}>Keep Pro</button>
              <button type="button" className="btn btn-danger" disabled={pending}
                onClick={() => change(cancel.trigger, `Cancelled. You keep Pro until ${longDate(sub.currentPeriodEnd!)}.`)}>
                {cancel.isMutating ? 'Cancelling...' : 'Cancel Subscription'}
              </button>
            </div>
          </Modal>
        )}
        {pro && running && sub.cancelAtPeriodEnd && (
          <button type="button" className="btn btn-secondary btn-sm" disabled={pending}
            onClick={() => change(resume.trigger, 'Your subscription renews again.')}>
            Resume Subscription
          </button>
        )}
        {pro && !pro.isPro && (
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => setBuying(true)}>Upgrade to Pro</button>
        )}
      </dd>
      {buying && (
        <Suspense fallback={null}>
          <ProDialog open={buying} onOpenChange={(open) => { setBuying(open); if (!open) { refreshSession(); void mutate(PRO_KEY) } }} />
        </Suspense>
      )}
    </div>
  )
}
