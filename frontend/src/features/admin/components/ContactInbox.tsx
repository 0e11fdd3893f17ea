import { useId } from 'react'
import { useInbox } from '../api'
import { formatDateTime } from '../logic'
import { LoadMore } from './AdminLog'
import { TableSkeleton } from './TopProducts'

/** 'Contact Messages': what people sent through the contact form, newest first (each was e-mailed to support too). */
export function ContactInbox() {
  const id = useId()
  const { data, error, isLoading, isValidating, size, setSize } = useInbox()
  const messages = data?.flatMap((page) => page.messages) ?? []
  const total = data?.[data.length - 1]?.total ?? 0
  const loadingMore = isValidating && data !== undefined && data.length < size
  return (
    <section className="card stack" aria-labelledby={id}>
      <h2 id={id} className="admin-h2">Contact Messages</h2>
      {isLoading && !data ? (
        <TableSkeleton rows={3} />
      ) : error && !data ? (
        <p className="muted">Failed to load the contact messages.</p>
      ) : messages.length === 0 ? (
        <p className="muted">No messages yet.</p>
      ) : (
        <>
          <ul className="plain-list stack" aria-label="Contact messages, newest first">
            {messages.map((message) => (
              <li key={message.id} className="inbox-message stack">
                <p className="row inbox-from">
                  <strong>{message.name}</strong>
                  <a className="text-link" href={`mailto:${message.email}?subject=${encodeURIComponent('Re: your message to SetupIQ')}`}>{message.email}</a>
                  {message.userId != null && <span className="hint">user #{message.userId}</span>}
                  <time className="hint" dateTime={message.createdAt}>{formatDateTime(message.createdAt)}</time>
                </p>
                <p className="inbox-text">{message.message}</p>
              </li>
            ))}
          </ul>
          <LoadMore shown={messages.length} total={total} loading={loadingMore} onMore={() => void setSize(size + 1)} />
        </>
      )}
    </section>
  )
}
