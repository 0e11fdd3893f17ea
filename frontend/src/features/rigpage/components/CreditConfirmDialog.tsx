import { Link } from 'react-router-dom'
import { Modal } from '@/components/ui/Modal'
import { plural } from '@/lib/plural'
import { credits } from '../draft'

export type PaidAction = 'publish' | 'link'

interface CreditConfirmDialogProps {
  open: boolean
  action: PaidAction
  cost: number
  balance: number
  /** Links that come free, and links one credit unlocks (for the link text). */
  freeLinks: number
  linksPerBatch: number
  pending: boolean
  onConfirm: () => void
  onCancel: () => void
}

export const NOT_ENOUGH_CREDITS = "⚠️ You don't have enough credits. Purchase more credits to continue."

/**
 * The one confirmation for paid actions (spec §2, §4): the first Go Live and each new
 * batch of links. Confirm is disabled when the balance is short.
 */
export function CreditConfirmDialog({ open, action, cost, balance, freeLinks, linksPerBatch, pending, onConfirm, onCancel }: CreditConfirmDialogProps) {
  const short = balance < cost
  const title = action === 'publish' ? 'Go Live?' : 'Unlock More Links?'
  const description =
    action === 'publish'
      ? `Publishing your RigPage costs ${credits(cost)}. It keeps the pages real: switching it off and on again later is free.`
      : `Your first ${plural(freeLinks, 'link')} ${freeLinks === 1 ? 'is' : 'are'} free. This link starts a new batch of ${plural(linksPerBatch, 'link')} for ${credits(cost)}.`
  return (
    <Modal open={open} onOpenChange={(next) => !next && onCancel()} title={title} description={description} dismissible={!pending}>
      <dl className="rp-cost">
        <div>
          <dt>Cost</dt>
          <dd data-testid="credit-cost">{credits(cost)}</dd>
        </div>
        <div>
          <dt>Your balance</dt>
          <dd data-testid="credit-balance">{credits(balance)}</dd>
        </div>
      </dl>
      {short && (
        <div className="form-error stack rp-short" role="alert">
          <p>{NOT_ENOUGH_CREDITS}</p>
          <Link to="/buy-credits" className="btn btn-secondary btn-sm" onClick={onCancel}>Buy Credits</Link>
        </div>
      )}
      <div className="dialog-actions">
        <button type="button" className="btn btn-ghost" onClick={onCancel} disabled={pending}>Cancel</button>
        <button type="button" className="btn btn-primary" onClick={onConfirm} disabled={short || pending}>
          {pending
            ? action === 'publish' ? 'Publishing...' : 'Adding...'
            : action === 'publish' ? `Go Live for ${credits(cost)}` : `Add Link for ${credits(cost)}`}
        </button>
      </div>
    </Modal>
  )
}
