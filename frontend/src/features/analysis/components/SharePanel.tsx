import { useId, useState } from 'react'
import { Link } from 'react-router-dom'
import { toast } from '@/lib/toast'
import useSWRMutation from 'swr/mutation'
import { messageOf } from '@/api/client'
import { useAuth } from '@/lib/auth'
import { Modal } from '@/components/ui/Modal'
import { formatScore } from '@/lib/ratingBands'
import { MY_ANALYSES_KEY, shareAnalysis, unshareAnalysis, type ShareLink } from '../api'
import { shareLinkFromPath, shareMessage, shareText, tweetIntentUrl } from '../share'
import { voicedUrl, type Voice } from '../voice'

function pageOrigin(): string {
  return typeof window === 'undefined' ? 'https://setupiq.app' : window.location.origin
}

function canShareNatively(): boolean {
  return typeof navigator !== 'undefined' && typeof navigator.share === 'function'
}

/** Copies text to the clipboard and says so (`done` is the toast). */
export async function copyToClipboard(text: string, done: string) {
  try {
    if (!navigator.clipboard) throw new Error('no clipboard')
    await navigator.clipboard.writeText(text)
    toast.success(done)
  } catch {
    toast.error('Could not copy to the clipboard.')
  }
}

/** The browser's own share sheet for a shared result, or its link on the clipboard. */
export async function shareLinkNatively(score: number, url: string) {
  if (!canShareNatively()) {
    await copyToClipboard(url, 'Link copied!')
    return
  }
  try {
    await navigator.share({ title: 'My SetupIQ Score', text: shareMessage(score), url })
  } catch {
    // Cancelled by the user.
  }
}

/** What a public link shows, and to whom. */
const WHO_SEES_IT = 'Anyone with the link sees the score, the category scores and your photo if there is one, not your name. You can stop sharing at any time.'

/**
 * Asked before a result is made public from anywhere but the share panel (whose own words say
 * it): the toolbar's "Share" makes the public link only once confirmed.
 */
export function MakePublicDialog({ open, pending, onConfirm, onCancel }: { open: boolean; pending: boolean; onConfirm: () => void; onCancel: () => void }) {
  return (
    <Modal open={open} onOpenChange={(next) => !next && onCancel()} title="Make this result public?" description={`Sharing creates a public link to this result. ${WHO_SEES_IT}`} dismissible={!pending}>
      <div className="row dialog-actions">
        <button type="button" className="btn btn-secondary" onClick={onCancel} disabled={pending}>Cancel</button>
        <button type="button" className="btn btn-primary" onClick={onConfirm} disabled={pending}>{pending ? 'Creating link...' : 'Create public link'}</button>
      </div>
    </Modal>
  )
}

export interface ResultShare {
  /** The public link while the analysis is shared. */
  link: ShareLink | null
  pending: 'share' | 'unshare' | null
  /** Creates the public link (or returns the existing one); null when the server refused. */
  share: () => Promise<ShareLink | null>
  unshare: () => Promise<void>
}

/**
 * Whether one's saved analysis is shared, and the calls that change it. `analysisId` is null
 * until the page knows the signed-in owner (nothing can be shared then); `sharePath` is what
 * the history said when the page opened. The history is refreshed after each change so My
 * Setups shows it.
 */
export function useResultShare(analysisId: number | null, sharePath: string | null | undefined): ResultShare {
  const [link, setLink] = useState<ShareLink | null>(() => (sharePath ? shareLinkFromPath(sharePath, pageOrigin()) : null))
  // Mutations of the history: SWR reads it again once the call has answered.
  const sharing = useSWRMutation(MY_ANALYSES_KEY, (_key, { arg: id }: { arg: number }) => shareAnalysis(id))
  const unsharing = useSWRMutation(MY_ANALYSES_KEY, (_key, { arg: id }: { arg: number }) => unshareAnalysis(id))
  const pending = sharing.isMutating ? 'share' : unsharing.isMutating ? 'unshare' : null

  const share = async () => {
    if (link || analysisId === null) return link
    try {
      const created = await sharing.trigger(analysisId)
      setLink(created)
      return created
    } catch (error) {
      toast.error(messageOf(error, 'Could not share your result.'))
      return null
    }
  }

  const unshare = async () => {
    if (analysisId === null) return
    try {
      await unsharing.trigger(analysisId)
      setLink(null)
      toast.success('Your result is no longer shared.')
    } catch (error) {
      toast.error(messageOf(error, 'Could not stop sharing your result.'))
    }
  }

  return { link, pending, share, unshare }
}

/**
 * The owner's share panel on /results: create the public link, pass it on, or stop sharing.
 * In the Roast or Coach voice, every link passed on (and the card shown) is that voice's
 * (`?voice=roast`): the server tells the public page and its card the same way.
 */
export function SharePanel({ score, share, voice = 'honest' }: { score: number; share: ResultShare; voice?: Voice | undefined }) {
  const id = useId()
  const { link, pending } = share
  return (
    <section className="card share-panel" aria-labelledby={`${id}-title`} data-testid="share-panel">
      <h2 id={`${id}-title`} className="card-title">Share Your Result</h2>
      {!link ? (
        <div className="stack share-panel-start">
          <p className="muted">
            Get a public link to this result with a preview card for X, Discord and friends. {WHO_SEES_IT}
          </p>
          <button type="button" className="btn btn-primary" onClick={() => void share.share()} disabled={pending !== null}>
            {pending === 'share' ? 'Creating link...' : 'Share my result'}
          </button>
        </div>
      ) : (
        <SharedLink score={score} link={{ url: voicedUrl(link.url, voice), imageUrl: voicedUrl(link.imageUrl, voice) }} share={share} />
      )}
    </section>
  )
}

function SharedLink({ score, link, share }: { score: number; link: ShareLink; share: ResultShare }) {
  const id = useId()
  return (
    <div className="share-panel-body">
      <img
        className="share-card-preview"
        src={link.imageUrl}
        alt={`Preview card of your result: SetupIQ Score ${formatScore(score)}/10`}
        width={1200}
        height={630}
        loading="lazy"
      />
      <div className="stack share-panel-actions">
        <div className="field">
          <label htmlFor={`${id}-url`}>Public link</label>
          <div className="row share-url-row">
            <input
              id={`${id}-url`}
              className="input"
              type="url"
              readOnly
              value={link.url}
              onFocus={(event) => event.currentTarget.select()}
              data-testid="share-url"
            />
            <button type="button" className="btn btn-secondary btn-sm" onClick={() => void copyToClipboard(link.url, 'Link copied!')}>Copy link</button>
          </div>
        </div>
        <div className="row share-buttons" role="group" aria-label="Share your score">
          <a className="btn btn-secondary btn-sm" href={tweetIntentUrl(score, link.url)} target="_blank" rel="noopener noreferrer">
            Share on X<span className="sr-only"> (opens in a new tab)</span>
          </a>
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => void copyToClipboard(shareText(score, link.url), 'Copied! Paste it into TikTok.')}>
            Copy for TikTok
          </button>
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => void copyToClipboard(shareText(score, link.url), 'Copied! Paste it into Discord.')}>
            Copy for Discord
          </button>
          {canShareNatively() && (
            <button type="button" className="btn btn-secondary btn-sm" onClick={() => void shareLinkNatively(score, link.url)}>Share…</button>
          )}
        </div>
        <div>
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => void share.unshare()} disabled={share.pending !== null}>
            {share.pending === 'unshare' ? 'Stopping...' : 'Stop sharing'}
          </button>
        </div>
        <p className="hint">Stopping turns this link off; sharing again makes a new one.</p>
      </div>
    </div>
  )
}

/**
 * Where a result cannot be shared: a visitor's free trial (signing up or in saves it to the
 * account, `saving` while the saved one opens), or a result that was not saved (kept too long).
 */
export function ShareUnavailable({ saving = false }: { saving?: boolean }) {
  const id = useId()
  const { state, openAuth } = useAuth()
  return (
    <section className="card share-panel" aria-labelledby={`${id}-title`} data-testid="share-panel">
      <h2 id={`${id}-title`} className="card-title">Share Your Result</h2>
      {state.status === 'authenticated' && saving ? (
        <p className="muted" role="status">Saving your result to your account...</p>
      ) : state.status === 'authenticated' ? (
        <p className="muted">
          This result was not saved to your account, so it has no public link. <Link to="/">Analyze a setup</Link> while
          signed in to share it.
        </p>
      ) : (
        <div className="stack share-panel-start">
          <p className="muted">Results saved to an account get a public link with a preview card for X, Discord and friends.</p>
          <button type="button" className="btn btn-primary" onClick={() => openAuth('register')}>Sign up to share your result</button>
        </div>
      )}
    </section>
  )
}
