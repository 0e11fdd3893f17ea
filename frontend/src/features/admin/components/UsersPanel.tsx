import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import { toast } from '@/lib/toast'
import { messageOf } from '@/api/client'
import { Modal } from '@/components/ui/Modal'
import { bulkChangeUsers, changeAccount, useRefreshAdmin, useUserSearch, type AdminAccount, type BulkResult } from '../api'
import {
  BULK_ACTIONS, bulkConfirmLabel, bulkDetails, bulkQuestion, bulkSummary, changeMessage, changeQuestion, formatCount, UNKNOWN_ERROR,
  type AccountChange, type BulkAction,
} from '../logic'

/** What the last bulk action did, kept on screen under the bar: its summary and each account skipped, with why. */
type BulkReport = { summary: string; skipped: { name: string; message: string }[] }

/**
 * 'Users': every account, newest first, 20 a page, or those whose e-mail or username holds
 * the search; grant or revoke Pro and the admin role, each once confirmed; or tick accounts
 * of the page and grant or remove Pro, mark them verified or delete them, all with one
 * confirmation.
 */
export function UsersPanel() {
  const id = useId()
  const [text, setText] = useState('')
  const [query, setQuery] = useState('')
  const [offset, setOffset] = useState(0)
  const { data, error, isLoading, mutate } = useUserSearch(query, offset)
  const refresh = useRefreshAdmin()
  const [busy, setBusy] = useState<number | null>(null)
  const [asking, setAsking] = useState<{ account: AdminAccount; what: AccountChange } | null>(null)
  // The ticked accounts of the page on screen: a new search or page starts with none.
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set())
  const [bulkAsking, setBulkAsking] = useState<BulkAction | null>(null)
  const [bulkBusy, setBulkBusy] = useState(false)
  const [report, setReport] = useState<BulkReport | null>(null)

  const search = (event: FormEvent) => {
    event.preventDefault()
    setQuery(text.trim())
    setOffset(0)
    setSelected(new Set())
  }

  const turnPage = (to: number) => {
    setOffset(to)
    setSelected(new Set())
  }

  const shown = data?.users ?? []
  const toggle = (userId: number) =>
    setSelected((now) => {
      const next = new Set(now)
      if (!next.delete(userId)) next.add(userId)
      return next
    })
  const allTicked = shown.length > 0 && shown.every((a) => selected.has(a.id))
  const toggleAll = () => setSelected(allTicked ? new Set() : new Set(shown.map((a) => a.id)))

  const runBulk = async (action: BulkAction) => {
    const userIds = shown.filter((a) => selected.has(a.id)).map((a) => a.id)
    setBulkBusy(true)
    try {
      const result = await bulkChangeUsers(userIds, action)
      const done = bulkReport(action, result, shown)
      setReport(done)
      const description = done.skipped.map((s) => `${s.name}: ${s.message}`).join(' ')
      if (result.changed > 0) toast.success(done.summary, description ? { description } : undefined)
      else toast.info(done.summary, description ? { description } : undefined)
      setSelected(new Set())
      void mutate()
      refresh({ users: true })
    } catch (err) {
      toast.error('Failed to change the accounts.', { description: messageOf(err, UNKNOWN_ERROR) })
    } finally {
      setBulkBusy(false)
      setBulkAsking(null)
    }
  }

  const change = async (account: AdminAccount, what: AccountChange) => {
    setAsking(null)
    setBusy(account.id)
    try {
      const updated = await changeAccount(account.id, what)
      toast.success(changeMessage(what, updated.username))
      void mutate((page) => page && { ...page, users: page.users.map((a) => (a.id === updated.id ? updated : a)) }, { revalidate: false })
      refresh()
    } catch (err) {
      toast.error('Failed to change the account.', { description: messageOf(err, UNKNOWN_ERROR) })
    } finally {
      setBusy(null)
    }
  }

  return (
    <section className="card stack" aria-labelledby={id}>
      <h2 id={id} className="admin-h2">Users</h2>
      <form className="row admin-search" role="search" onSubmit={search}>
        <label htmlFor={`${id}-query`} className="sr-only">E-mail or username</label>
        <input
          id={`${id}-query`}
          className="input"
          type="search"
          placeholder="E-mail or username"
          maxLength={254}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        <button type="submit" className="btn btn-secondary">Search</button>
      </form>
      {selected.size > 0 && (
        <div className="row admin-bulk-bar" role="toolbar" aria-label="Bulk actions on the selected accounts">
          <p className="admin-bulk-count" aria-live="polite">{selected.size} selected</p>
          {BULK_ACTIONS.map(({ action, label }) => (
            <button key={action} type="button" className={`btn btn-sm ${action === 'delete' ? 'btn-danger' : 'btn-secondary'}`} disabled={bulkBusy} onClick={() => setBulkAsking(action)}>
              {label}
            </button>
          ))}
          <button type="button" className="btn btn-ghost btn-sm" disabled={bulkBusy} onClick={() => setSelected(new Set())}>Clear selection</button>
        </div>
      )}
      {report && (
        <div className="admin-bulk-report" role="status">
          <p>{report.summary}</p>
          {report.skipped.length > 0 && (
            <ul>
              {report.skipped.map((s) => <li key={s.name}>{s.name}: {s.message}</li>)}
            </ul>
          )}
        </div>
      )}
      {isLoading && !data ? (
        <p className="muted" role="status">Loading accounts...</p>
      ) : error && !data ? (
        <p className="form-error" role="alert">{messageOf(error, 'Failed to search users.')}</p>
      ) : !data || data.users.length === 0 ? (
        <p className="muted">No accounts found.</p>
      ) : (
        <>
        {/* Above the table rather than in its head, which a phone hides when the rows become cards. */}
        <label className="admin-select-all">
          <SelectAll checked={allTicked} some={selected.size > 0} onChange={toggleAll} /> Select all on this page
        </label>
        <div className="table-wrap">
          <table className="history-table admin-users-table">
            <caption className="sr-only">{query ? `Accounts matching “${query}”` : 'Accounts, newest first'}</caption>
            <thead>
              <tr>
                <th scope="col" className="admin-select"><span className="sr-only">Selected</span></th>
                <th scope="col">Username</th>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Pro</th>
                <th scope="col">Verified</th>
                <th scope="col" className="num">Credits</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {data.users.map((account) => {
                const disabled = busy === account.id
                const isAdmin = account.role === 'admin'
                return (
                  <tr key={account.id}>
                    <td className="admin-select">
                      <input type="checkbox" aria-label={`Select @${account.username}`} checked={selected.has(account.id)} onChange={() => toggle(account.id)} />
                    </td>
                    <th scope="row" className="admin-row-head">@{account.username}</th>
                    <td data-label="Email">{account.email}</td>
                    <td data-label="Role">{isAdmin ? <span className="badge">admin</span> : account.role}</td>
                    <td data-label="Pro">{account.isPro ? <span className="badge badge-pro">PRO</span> : 'No'}</td>
                    <td data-label="Verified">{account.emailVerified ? 'Yes' : 'No'}</td>
                    <td data-label="Credits" className="num">{formatCount(account.credits)}</td>
                    <td>
                      <div className="row admin-actions">
                        <button type="button" className="btn btn-secondary btn-sm" disabled={disabled} aria-label={`${account.isPro ? 'Revoke Pro from' : 'Grant Pro to'} @${account.username}`}
                          onClick={() => setAsking({ account, what: account.isPro ? 'revoke_pro' : 'grant_pro' })}>
                          {account.isPro ? 'Revoke Pro' : 'Grant Pro'}
                        </button>
                        <button type="button" className={`btn btn-sm ${isAdmin ? 'btn-danger' : 'btn-secondary'}`} disabled={disabled} aria-label={`${isAdmin ? 'Remove admin from' : 'Make admin'} @${account.username}`}
                          onClick={() => setAsking({ account, what: isAdmin ? 'revoke_admin' : 'grant_admin' })}>
                          {isAdmin ? 'Remove admin' : 'Make admin'}
                        </button>
                      </div>
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        </div>
        </>
      )}
      {data && data.total > data.limit && (
        <div className="row admin-pager">
          <p className="hint" role="status">
            {data.offset + 1}–{data.offset + data.users.length} of {formatCount(data.total)}
          </p>
          <button type="button" className="btn btn-secondary btn-sm" disabled={offset === 0} onClick={() => turnPage(Math.max(0, offset - data.limit))}>Previous</button>
          <button type="button" className="btn btn-secondary btn-sm" disabled={!data.hasMore} onClick={() => turnPage(offset + data.limit)}>Next</button>
        </div>
      )}
      <Modal open={asking !== null} onOpenChange={(open) => !open && setAsking(null)} title={asking ? changeQuestion(asking.what, asking.account.username) : ''}>
        <div className="row dialog-actions">
          <button type="button" className="btn btn-secondary" onClick={() => setAsking(null)}>Cancel</button>
          <button type="button" className="btn btn-primary" onClick={() => asking && void change(asking.account, asking.what)}>Confirm</button>
        </div>
      </Modal>
      <Modal
        open={bulkAsking !== null}
        onOpenChange={(open) => !open && setBulkAsking(null)}
        dismissible={!bulkBusy}
        title={bulkAsking ? bulkQuestion(bulkAsking, selected.size) : ''}
        description={bulkAsking ? bulkDetails(bulkAsking, selected.size) : undefined}
      >
        <div className="row dialog-actions">
          <button type="button" className="btn btn-secondary" disabled={bulkBusy} onClick={() => setBulkAsking(null)}>Cancel</button>
          <button type="button" className={`btn ${bulkAsking === 'delete' ? 'btn-danger' : 'btn-primary'}`} disabled={bulkBusy} onClick={() => bulkAsking && void runBulk(bulkAsking)}>
            {bulkBusy ? 'Working...' : bulkAsking ? bulkConfirmLabel(bulkAsking, selected.size) : ''}
          </button>
        </div>
      </Modal>
    </section>
  )
}

/** The box that ticks every account of the page; half-ticked when some are. */
function SelectAll({ checked, some, onChange }: { checked: boolean; some: boolean; onChange: () => void }) {
  const box = useRef<HTMLInputElement>(null)
  useEffect(() => {
    if (box.current) box.current.indeterminate = some && !checked
  }, [some, checked])
  return <input ref={box} type="checkbox" checked={checked} onChange={onChange} />
}

/** The summary of a bulk action and its skipped accounts by name (an id the page does not show, by number). */
function bulkReport(action: BulkAction, result: BulkResult, shown: AdminAccount[]): BulkReport {
  const name = (userId: number) => {
    const account = shown.find((a) => a.id === userId)
    return account ? `@${account.username}` : `User #${userId}`
  }
  const skipped = result.results.filter((r) => !r.changed).map((r) => ({ name: name(r.userId), message: r.message ?? UNKNOWN_ERROR }))
  return { summary: bulkSummary(action, result.changed, result.skipped), skipped }
}
