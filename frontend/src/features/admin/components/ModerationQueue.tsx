import { useId, useState } from 'react'
import { toast } from '@/lib/toast'
import { messageOf } from '@/api/client'
import { Modal } from '@/components/ui/Modal'
import { Link } from 'react-router-dom'
import { decideCommentReports, decideReports, useCommentReports, useRefreshAdmin, useReports, type Decision, type ReportedComment, type ReportedSetup } from '../api'
import { formatDateTime, reasonLabel, UNKNOWN_ERROR } from '../logic'
import { TableSkeleton } from './TopProducts'

/** 'Moderation Queue': setups with open reports; dismiss the reports or remove the setup. */
export function ModerationQueue() {
  const id = useId()
  const { data, error, isLoading } = useReports()
  return (
    <section className="card stack" aria-labelledby={id}>
      <h2 id={id} className="admin-h2">Moderation Queue</h2>
      {isLoading && !data ? (
        <TableSkeleton rows={2} />
      ) : error && !data ? (
        <p className="muted">Failed to load reports.</p>
      ) : !data || data.length === 0 ? (
        <p className="muted">No open reports.</p>
      ) : (
        <ul className="plain-list stack">
          {data.map((setup) => (
            <ReportedItem key={setup.setupId} setup={setup} />
          ))}
        </ul>
      )}
    </section>
  )
}

function ReportedItem({ setup }: { setup: ReportedSetup }) {
  const id = useId()
  const refresh = useRefreshAdmin()
  const [note, setNote] = useState('')
  const [pending, setPending] = useState<Decision | null>(null)
  const [confirming, setConfirming] = useState(false)
  const title = setup.title?.trim() || 'Untitled'

  const decide = async (decision: Decision) => {
    setPending(decision)
    try {
      await decideReports(setup.setupId, decision, note.trim() || undefined)
      toast.success(decision === 'dismiss' ? 'Reports dismissed.' : 'Setup removed.', { description: title })
      setConfirming(false)
      refresh({ reports: true })
    } catch (error) {
      toast.error(decision === 'dismiss' ? 'Failed to dismiss the reports.' : 'Failed to remove the setup.', { description: messageOf(error, UNKNOWN_ERROR) })
    } finally {
      setPending(null)
    }
  }

  return (
    <li className="admin-report" aria-labelledby={`${id}-title`}>
      <div className="admin-report-head">
        {setup.thumbnailUrl ? (
          <img className="admin-report-thumb" src={setup.thumbnailUrl} alt="" loading="lazy" />
        ) : (
          <div className="admin-report-thumb" aria-hidden="true" />
        )}
        <div className="stack admin-report-meta">
          <h3 id={`${id}-title`} className="admin-report-title">{title}</h3>
          <p className="muted">
            by @{setup.uploaderUsername} · score {setup.score} · published {formatDateTime(setup.publishedAt)}
          </p>
          <p className="row">
            {setup.hidden && <span className="badge badge-warning">Hidden</span>}
            {setup.reasons.map((r) => (
              <span key={r.reason} className="badge">{reasonLabel(r.reason)} × {r.count}</span>
            ))}
          </p>
        </div>
      </div>
      <ReportList reports={setup.reports} />
      <div className="field">
        <label htmlFor={`${id}-note`}>Note for the admin log (optional)</label>
        <input id={`${id}-note`} className="input" maxLength={500} value={note} onChange={(e) => setNote(e.target.value)} disabled={pending !== null} />
      </div>
      <div className="row">
        <button type="button" className="btn btn-secondary" disabled={pending !== null} onClick={() => void decide('dismiss')} aria-label={`Dismiss reports for ${title}`}>
          {pending === 'dismiss' ? 'Dismissing...' : 'Dismiss reports'}
        </button>
        <button type="button" className="btn btn-danger" disabled={pending !== null} onClick={() => setConfirming(true)} aria-label={`Remove setup ${title}`}>
          Remove setup
        </button>
      </div>
      <Modal
        open={confirming}
        onOpenChange={(open) => !open && setConfirming(false)}
        title="Remove this setup?"
        description={`"${title}" by @${setup.uploaderUsername} will be deleted with its photos, votes and reports. This cannot be undone.`}
        dismissible={pending === null}
      >
        <div className="row dialog-actions">
          <button type="button" className="btn btn-secondary" onClick={() => setConfirming(false)} disabled={pending !== null}>Cancel</button>
          <button type="button" className="btn btn-danger" onClick={() => void decide('remove')} disabled={pending !== null}>
            {pending === 'remove' ? 'Removing...' : 'Remove setup'}
          </button>
        </div>
      </Modal>
    </li>
  )
}

/** Who reported, why and when. */
function ReportList({ reports }: { reports: ReportedSetup['reports'] }) {
  return (
    <ul className="plain-list admin-report-list">
      {reports.map((report, index) => (
        <li key={`${report.reporterId}-${index}`}>
          <p>
            <strong>@{report.reporterUsername}</strong> <span className="muted">({report.reporterEmail})</span> · {reasonLabel(report.reason)} ·{' '}
            <time dateTime={report.createdAt} className="muted">{formatDateTime(report.createdAt)}</time>
          </p>
          {report.details && <p className="admin-report-details">{report.details}</p>}
        </li>
      ))}
    </ul>
  )
}

/** 'Reported Comments': comments with open reports; dismiss the reports or remove the comment. */
export function ReportedComments() {
  const id = useId()
  const { data, error, isLoading } = useCommentReports()
  return (
    <section className="card stack" aria-labelledby={id}>
      <h2 id={id} className="admin-h2">Reported Comments</h2>
      {isLoading && !data ? (
        <TableSkeleton rows={2} />
      ) : error && !data ? (
        <p className="muted">Failed to load reports.</p>
      ) : !data || data.length === 0 ? (
        <p className="muted">No reported comments.</p>
      ) : (
        <ul className="plain-list stack">
          {data.map((comment) => (
            <ReportedCommentItem key={comment.commentId} comment={comment} />
          ))}
        </ul>
      )}
    </section>
  )
}

function ReportedCommentItem({ comment }: { comment: ReportedComment }) {
  const id = useId()
  const refresh = useRefreshAdmin()
  const [note, setNote] = useState('')
  const [pending, setPending] = useState<Decision | null>(null)
  const [confirming, setConfirming] = useState(false)
  const author = comment.authorUsername ? `@${comment.authorUsername}` : 'a deleted account'

  const decide = async (decision: Decision) => {
    setPending(decision)
    try {
      await decideCommentReports(comment.commentId, decision, note.trim() || undefined)
      toast.success(decision === 'dismiss' ? 'Reports dismissed.' : 'Comment removed.', { description: `By ${author}` })
      setConfirming(false)
      refresh({ reports: true })
    } catch (error) {
      toast.error(decision === 'dismiss' ? 'Failed to dismiss the reports.' : 'Failed to remove the comment.', { description: messageOf(error, UNKNOWN_ERROR) })
    } finally {
      setPending(null)
    }
  }

  return (
    <li className="admin-report" aria-labelledby={`${id}-title`}>
      <div className="stack admin-report-meta">
        <h3 id={`${id}-title`} className="admin-report-title">Comment by {author}</h3>
        <p className="muted">
          written {formatDateTime(comment.writtenAt)} · <Link className="text-link" to={`/community/setup/${comment.setupId}`}>under setup #{comment.setupId}</Link>
        </p>
        <blockquote className="admin-report-details">{comment.body || '[deleted]'}</blockquote>
      </div>
      <ReportList reports={comment.reports} />
      <div className="field">
        <label htmlFor={`${id}-note`}>Note for the admin log (optional)</label>
        <input id={`${id}-note`} className="input" maxLength={500} value={note} onChange={(e) => setNote(e.target.value)} disabled={pending !== null} />
      </div>
      <div className="row">
        <button type="button" className="btn btn-secondary" disabled={pending !== null} onClick={() => void decide('dismiss')} aria-label={`Dismiss reports for the comment by ${author}`}>
          {pending === 'dismiss' ? 'Dismissing...' : 'Dismiss reports'}
        </button>
        <button type="button" className="btn btn-danger" disabled={pending !== null} onClick={() => setConfirming(true)} aria-label={`Remove the comment by ${author}`}>
          Remove comment
        </button>
      </div>
      <Modal
        open={confirming}
        onOpenChange={(open) => !open && setConfirming(false)}
        title="Remove this comment?"
        description={`The comment by ${author} will be deleted; replies to it stay, under [deleted]. This cannot be undone.`}
        dismissible={pending === null}
      >
        <div className="row dialog-actions">
          <button type="button" className="btn btn-secondary" onClick={() => setConfirming(false)} disabled={pending !== null}>Cancel</button>
          <button type="button" className="btn btn-danger" onClick={() => void decide('remove')} disabled={pending !== null}>
            {pending === 'remove' ? 'Removing...' : 'Remove comment'}
          </button>
        </div>
      </Modal>
    </li>
  )
}
