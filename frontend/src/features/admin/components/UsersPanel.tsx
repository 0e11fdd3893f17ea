import { useId, useState, type FormEvent } from 'react'
import { toast } from '@/lib/toast'
import { messageOf } from '@/api/client'
import { Modal } from '@/components/ui/Modal'
import { changeAccount, useRefreshAdmin, useUserSearch, type AdminAccount } from '../api'
import { changeMessage, changeQuestion, formatCount, UNKNOWN_ERROR, type AccountChange } from '../logic'

/**
 * 'Users': every account, newest first, 20 a page, or those whose e-mail or username holds
 * the search; grant or revoke Pro and the admin role, each once confirmed.
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

  const search = (event: FormEvent) => {
    event.preventDefault()
    setQuery(text.trim())
    setOffset(0)
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
      {isLoading && !data ? (
        <p className="muted" role="status">Loading accounts...</p>
      ) : error && !data ? (
        <p className="form-error" role="alert">{messageOf(error, 'Failed to search users.')}</p>
      ) : !data || data.users.length === 0 ? (
        <p className="muted">No accounts found.</p>
      ) : (
        <div className="table-wrap">
          <table className="history-table admin-users-table">
            <caption className="sr-only">{query ? `Accounts matching “${query}”` : 'Accounts, newest first'}</caption>
            <thead>
              <tr>
                <th scope="col">Username</th>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Pro</th>
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
                    <th scope="row" className="admin-row-head">@{account.username}</th>
                    <td data-label="Email">{account.email}</td>
                    <td data-label="Role">{isAdmin ? <span className="badge">admin</span> : account.role}</td>
                    <td data-label="Pro">{account.isPro ? <span className="badge badge-pro">PRO</span> : 'No'}</td>
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
      )}
      {data && data.total > data.limit && (
        <div className="row admin-pager">
          <p className="hint" role="status">
            {data.offset + 1}–{data.offset + data.users.length} of {formatCount(data.total)}
          </p>
          <button type="button" className="btn btn-secondary btn-sm" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - data.limit))}>Previous</button>
          <button type="button" className="btn btn-secondary btn-sm" disabled={!data.hasMore} onClick={() => setOffset(offset + data.limit)}>Next</button>
        </div>
      )}
      <Modal open={asking !== null} onOpenChange={(open) => !open && setAsking(null)} title={asking ? changeQuestion(asking.what, asking.account.username) : ''}>
        <div className="row dialog-actions">
          <button type="button" className="btn btn-secondary" onClick={() => setAsking(null)}>Cancel</button>
          <button type="button" className="btn btn-primary" onClick={() => asking && void change(asking.account, asking.what)}>Confirm</button>
        </div>
      </Modal>
    </section>
  )
}
