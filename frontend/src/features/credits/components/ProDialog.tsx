import { useState } from 'react'
import useSWRMutation from 'swr/mutation'
import { Check } from 'lucide-react'
import { messageOf } from '@/api/client'
import { Modal } from '@/components/ui/Modal'
import { Skeleton } from '@/components/ui/Skeleton'
import { formatPrice } from '@/lib/price'
import { subscribe, usePro, type Plan, type ProPlan, type Purchase, type Subscribed } from '../api'
import { longDate } from '../format'
import { CardForm } from './PaymentDialog'

/** What Pro gives: only what the product does. */
export const PRO_BENEFITS = ['Unlimited analyses: no credit needed', 'PDF export of your reports', 'Pro badge and glowing avatar']

/** `$4.99 / month`. */
export function planPrice(plan: ProPlan): string {
  return `${formatPrice(plan.priceCents, plan.currency)} / ${plan.interval}`
}

/**
 * Buying Pro: the plan, then the card form (Stripe Elements, or the test mode's, as for a
 * pack), then the date Pro runs until. Cancel any time on the profile; Pro stays until the paid period ends.
 */
export function ProDialog({ open, onOpenChange, plan = 'yearly' }: {
  open: boolean
  onOpenChange: (open: boolean) => void
  /** The plan selected on opening: the one whose card or price was clicked. */
  plan?: Plan
}) {
  const [busy, setBusy] = useState(false)
  return (
    <Modal open={open} onOpenChange={(next) => (busy ? undefined : onOpenChange(next))} dismissible={!busy} title="Upgrade to Pro"
      description="Analyses without credits, PDF reports and the Pro badge. Cancel any time.">
      {open && <ProFlow initialPlan={plan} onBusyChange={setBusy} onDone={() => onOpenChange(false)} />}
    </Modal>
  )
}

type Step = { name: 'plan' } | { name: 'pay'; plan: ProPlan; started: Subscribed } | { name: 'done'; until: string }

function ProFlow({ initialPlan, onBusyChange, onDone }: { initialPlan: Plan; onBusyChange: (busy: boolean) => void; onDone: () => void }) {
  const { data: pro, error } = usePro()
  const [chosen, setChosen] = useState<Plan>(initialPlan)
  const [step, setStep] = useState<Step>({ name: 'plan' })
  const [problem, setProblem] = useState<string | null>(null)
  const { trigger, isMutating: starting } = useSWRMutation('/_api/pro/subscribe', (_path, { arg: plan }: { arg: Plan }) => subscribe(plan))

  if (error) return <p className="form-error" role="alert">{messageOf(error, 'Could not load Pro.')}</p>
  if (!pro) return <Skeleton height={160} />

  const start = async () => {
    const plan = pro.plans.find((p) => p.plan === chosen)
    if (!plan) return
    setProblem(null)
    try {
      const started = await trigger(plan.plan)
      setStep({ name: 'pay', plan, started })
    } catch (failure) {
      setProblem(messageOf(failure, 'Could not start your subscription. Please try again.'))
    }
  }

  if (step.name === 'done') {
    return (
      <div className="stack pay-success">
        <div className="pay-success-icon" aria-hidden="true"><Check aria-hidden="true" /></div>
        <h3>You're Pro!</h3>
        <p className="muted">Your analyses are free until <strong>{longDate(step.until)}</strong>; then it renews. Cancel any time on your profile.</p>
        <button type="button" className="btn btn-primary btn-block" onClick={onDone} autoFocus>Done</button>
      </div>
    )
  }
  if (step.name === 'pay') {
    return (
      <div className="stack">
        <p className="muted" style={{ margin: 0 }}>{step.plan.name}: {planPrice(step.plan)}</p>
        <CardForm price={step.plan} intent={step.started} publishableKey={pro.publishableKey} onBusyChange={onBusyChange}
          onPaid={(paid: Purchase) => setStep({ name: 'done', until: paid.proUntil ?? new Date().toISOString() })} />
      </div>
    )
  }
  return (
    <div className="stack">
      <fieldset className="plan-choice">
        <legend className="sr-only">Plan</legend>
        {pro.plans.map((plan) => (
          <label key={plan.plan} className={chosen === plan.plan ? 'plan-option selected' : 'plan-option'}>
            <input type="radio" name="plan" value={plan.plan} checked={chosen === plan.plan} onChange={() => setChosen(plan.plan)} />
            <span>
              <strong>{plan.plan === 'yearly' ? 'Yearly' : 'Monthly'}</strong>
              <span className="muted"> · {planPrice(plan)}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <ul className="check-list">
        {PRO_BENEFITS.map((benefit) => <li key={benefit}>{benefit}</li>)}
      </ul>
      {problem && <p className="form-error" role="alert">{problem}</p>}
      <button type="button" className="btn btn-primary btn-block" onClick={start} disabled={starting}>
        {starting ? 'Starting...' : 'Continue to Payment'}
      </button>
    </div>
  )
}
