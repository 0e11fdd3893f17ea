import { useId, useState } from 'react'
import useSWRMutation from 'swr/mutation'
import { toast } from '@/lib/toast'
import { messageOf } from '@/api/client'
import { Skeleton } from '@/components/ui/Skeleton'
import { plural } from '@/lib/plural'
import { Modal } from '@/components/ui/Modal'
import { activateProducts, deactivateProducts, expectRedirect, setActive, useHealthReport, useRefreshAdmin, verifyLinks, type HealthReport, type LinkProblem, type VerificationResult } from '../api'
import { canAcceptRedirect, formatCount, formatDateTime, formatUsd, UNKNOWN_ERROR, verdictLabel, verdictTone } from '../logic'
import { ReplaceLinkDialog } from './ReplaceLinkDialog'

/** 'Link Health Management': the catalogue's link counts, a verification run and the links that need an admin (§2, §4). */
export function LinkHealth() {
  const id = useId()
  const { data, error, isLoading } = useHealthReport()
  const refresh = useRefreshAdmin()
  const { trigger, isMutating: verifying } = useSWRMutation('/_api/admin/verify-links', () => verifyLinks({}))
  const [result, setResult] = useState<VerificationResult | null>(null)

  const verify = async () => {
    toast.info('Starting link verification process...')
    try {
      const run = await trigger()
      setResult(run)
      const unreachable = run.unreachable > 0 ? ` ${formatCount(run.unreachable)} could not be checked from this server.` : ''
      toast.success('Link verification completed!', { description: `${plural(run.dead, 'dead link')} found out of ${run.totalChecked} checked.${unreachable}` })
      refresh({ health: true })
    } catch (err) {
      toast.error('Link verification failed.', { description: messageOf(err, UNKNOWN_ERROR) })
      // A run that could not reach the network is recorded as failed, with its reason.
      refresh({ health: true })
    }
  }

  const counts: [string, number | undefined][] = [
    ['Total', data?.total],
    ['Active', data?.active],
    ['Inactive', data?.inactive],
    ['Never Verified', data?.neverVerified],
  ]

  return (
    <section className="card stack" aria-labelledby={id}>
      <h2 id={id} className="admin-h2">Link Health Management</h2>
      {error && !data && <p className="muted">Failed to load the link health report.</p>}
      <dl className="grid admin-health-counts">
        {counts.map(([label, value]) => (
          <div key={label} className="admin-health-count">
            <dt className="muted">{label}</dt>
            <dd className="admin-stat-value">{value !== undefined ? formatCount(value) : isLoading ? <Skeleton height={28} width={60} /> : '—'}</dd>
          </div>
        ))}
      </dl>
      <p className="muted">
        Last verification run: {data ? formatDateTime(data.lastVerificationRun) : isLoading ? '…' : 'Never'}
        {data?.lastRun && data.lastRun.status !== 'completed' && <> ({data.lastRun.status})</>}
      </p>
      {data?.lastRun?.status === 'failed' && data.lastRun.failureReason && (
        <div className="admin-offline" role="note">
          <p><strong>{data.lastRun.unreachable > 0 ? 'This server could not reach the internet, so the links were not checked.' : 'The last verification run failed.'}</strong></p>
          <p className="hint">{data.lastRun.failureReason}</p>
        </div>
      )}
      <div className="row">
        <button type="button" className="btn btn-primary" onClick={() => void verify()} disabled={verifying} aria-describedby={`${id}-note`}>
          {verifying ? 'Verifying...' : 'Verify All Links'}
        </button>
        <span id={`${id}-note`} className="hint">Checking every link may take a few minutes.</span>
      </div>
      {result && <VerificationReport result={result} />}
      <h3>Links that need attention</h3>
      {data ? <ProblemTable problems={data.problems} lastRun={data.lastRun?.status ?? null} onChanged={() => refresh({ health: true })} /> : isLoading ? <Skeleton height={120} /> : null}
    </section>
  )
}

/** The figures of a run, and its broken links grouped by kind (each group folded away). */
function VerificationReport({ result }: { result: VerificationResult }) {
  const figures: [string, number][] = [
    ['Checked', result.totalChecked],
    ['Healthy', result.healthy],
    ['Dead', result.dead],
    ['Warnings', result.warnings],
    ['Unknown', result.unknown],
    ['Errors', result.errors],
    ['Timeouts', result.timeouts],
    ['Could not check', result.unreachable],
  ]
  const groups = new Map<string, VerificationResult['deadLinks']>()
  for (const link of result.deadLinks) {
    const kind = verdictLabel({ verdict: link.verdict, statusCode: link.statusCode ?? null })
    groups.set(kind, [...(groups.get(kind) ?? []), link])
  }
  return (
    <div className="admin-run stack" role="status" aria-label="Verification report">
      <p className="row admin-run-figures">
        {figures.map(([label, value]) => (
          <span key={label} className="badge">{label}: {formatCount(value)}</span>
        ))}
      </p>
      {result.unreachable > 0 && (
        <p className="hint">{plural(result.unreachable, 'link')} could not be checked from this server (its network failed for them); they were left as they were.</p>
      )}
      {[...groups].map(([kind, links]) => (
        <details key={kind} className="admin-run-group">
          <summary>
            <span className="badge admin-tone-danger">{kind}</span> {plural(links.length, 'link')}
          </summary>
          <ul className="plain-list admin-dead-links">
            {links.map((link) => (
              <li key={link.productId}>
                Product #{link.productId}: <span className="admin-url">{link.url}</span>
              </li>
            ))}
          </ul>
        </details>
      ))}
    </div>
  )
}

/** How the last run ended (none yet: null): links are called healthy only after a run that completed. */
type LastRunStatus = NonNullable<HealthReport['lastRun']>['status'] | null

function ProblemTable({ problems, lastRun, onChanged }: { problems: LinkProblem[]; lastRun: LastRunStatus; onChanged: () => void }) {
  const [busy, setBusy] = useState<number | null>(null)
  const [replacing, setReplacing] = useState<LinkProblem | null>(null)

  const act = async (link: LinkProblem, action: () => Promise<unknown>, done: string, failed: string) => {
    setBusy(link.productId)
    try {
      await action()
      toast.success(done, { description: link.name })
      onChanged()
    } catch (error) {
      toast.error(failed, { description: messageOf(error, UNKNOWN_ERROR) })
    } finally {
      setBusy(null)
    }
  }

  const inactive = problems.filter((link) => !link.isActive)
  const deadActive = problems.filter((link) => link.isActive && link.health === 'dead')
  const [askingDeactivate, setAskingDeactivate] = useState(false)
  const actOnMany = async (action: () => Promise<number>, done: (n: number) => string, failed: string) => {
    setBusy(-1)
    try {
      toast.success(done(await action()))
      onChanged()
    } catch (error) {
      toast.error(failed, { description: messageOf(error, UNKNOWN_ERROR) })
    } finally {
      setBusy(null)
    }
  }
  const activateAll = () =>
    actOnMany(() => activateProducts(inactive.map((link) => link.productId)), (n) => `${plural(n, 'product')} activated.`, 'Failed to activate the products.')
  const deactivateDead = () => {
    setAskingDeactivate(false)
    return actOnMany(() => deactivateProducts(deadActive.map((link) => link.productId)), (n) => `${plural(n, 'product')} deactivated.`, 'Failed to deactivate the products.')
  }

  if (problems.length === 0) {
    if (lastRun === 'failed') return <p className="muted">No link is known to be broken, but the last check failed: run it again to know.</p>
    if (lastRun === null) return <p className="muted">No link has been checked yet.</p>
    return <p className="muted">All links look healthy.</p>
  }
  return (
    <div className="table-wrap">
      {inactive.length > 1 && (
        <p className="row">
          <button type="button" className="btn btn-secondary btn-sm" disabled={busy !== null} onClick={() => void activateAll()}>
            Activate all {formatCount(inactive.length)} inactive products
          </button>
          <span className="hint">Their failure counts start over.</span>
        </p>
      )}
      {deadActive.length > 1 && (
        <p className="row">
          <button type="button" className="btn btn-danger btn-sm" disabled={busy !== null} onClick={() => setAskingDeactivate(true)}>
            Deactivate all {formatCount(deadActive.length)} dead links
          </button>
          <span className="hint">Suggestions stop offering them until they are activated again.</span>
        </p>
      )}
      <Modal open={askingDeactivate} onOpenChange={setAskingDeactivate} title={`Deactivate ${plural(deadActive.length, 'product')} with a dead link?`}>
        <div className="row dialog-actions">
          <button type="button" className="btn btn-secondary" onClick={() => setAskingDeactivate(false)}>Cancel</button>
          <button type="button" className="btn btn-danger" onClick={() => void deactivateDead()}>Deactivate</button>
        </div>
      </Modal>
      <table className="history-table admin-problems">
        <caption className="sr-only">Links that need attention, most revenue at risk first</caption>
        <thead>
          <tr>
            <th scope="col">Product</th>
            <th scope="col">Category</th>
            <th scope="col">Health</th>
            <th scope="col" className="num">Revenue at risk</th>
            <th scope="col" className="num">Failures</th>
            <th scope="col">Status</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {problems.map((link) => {
            const disabled = busy === link.productId
            return (
              <tr key={link.productId}>
                <th scope="row" className="admin-row-head">
                  {link.name}
                  <span className="admin-url hint" title={link.url}>{link.network} · {link.url}</span>
                  {link.finalUrl && link.finalUrl !== link.url && <span className="admin-url hint" title={link.finalUrl}>→ {link.finalUrl}</span>}
                </th>
                <td>{link.category}</td>
                <td>
                  <span className={`badge admin-tone-${verdictTone(link)}`}>{verdictLabel(link)}</span>
                </td>
                <td className="num">{formatUsd(link.revenueAtRisk)}</td>
                <td className="num">{link.consecutiveFailures}</td>
                <td>{link.isActive ? <span className="badge badge-success">Active</span> : <span className="badge">Inactive</span>}</td>
                <td>
                  <div className="row admin-actions">
                    {canAcceptRedirect(link) && (
                      <button type="button" className="btn btn-secondary btn-sm" disabled={disabled} aria-label={`Accept redirect for ${link.name}`}
                        onClick={() => void act(link, () => expectRedirect(link.productId), 'Redirect accepted.', 'Failed to accept the redirect.')}>
                        Accept redirect
                      </button>
                    )}
                    <button type="button" className="btn btn-secondary btn-sm" disabled={disabled} aria-label={`Replace link for ${link.name}`} onClick={() => setReplacing(link)}>
                      Replace link
                    </button>
                    {link.isActive ? (
                      <button type="button" className="btn btn-danger btn-sm" disabled={disabled} aria-label={`Deactivate ${link.name}`}
                        onClick={() => void act(link, () => setActive(link.productId, false), 'Product deactivated.', 'Failed to deactivate the product.')}>
                        Deactivate
                      </button>
                    ) : (
                      <button type="button" className="btn btn-secondary btn-sm" disabled={disabled} aria-label={`Activate ${link.name}`}
                        onClick={() => void act(link, () => setActive(link.productId, true), 'Product activated.', 'Failed to activate the product.')}>
                        Activate
                      </button>
                    )}
                  </div>
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
      {replacing && <ReplaceLinkDialog link={replacing} onClose={() => setReplacing(null)} onDone={onChanged} />}
    </div>
  )
}
