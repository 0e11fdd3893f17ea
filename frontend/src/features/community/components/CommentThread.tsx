import { zodResolver } from '@hookform/resolvers/zod'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { Link } from 'react-router-dom'
import { toast } from '@/lib/toast'
import { ApiError, messageOf } from '@/api/client'
import { TextAreaField } from '@/components/ui/Field'
import { useAuth } from '@/lib/auth'
import { linkify } from '@/lib/linkify'
import { plural } from '@/lib/plural'
import { relativeTime } from '@/lib/relativeTime'
import { useServerErrors } from '@/lib/useServerErrors'
import { deleteComment, editComment, postComment, useComments, useRefreshCommunity, type Comment, type CommunitySetup } from '../api'
import { canEdit } from '../logic'
import { COMMENT_MAX, commentLength, commentSchema, type CommentValues } from '../schemas'
import { ReportDialog } from './ReportDialog'
import { ProBadge } from './SetupCard'

/** A comment's text as written: React escapes it; only web links become links. */
function CommentBody({ text }: { text: string }) {
  return (
    <p className="cm-comment-body">
      {linkify(text).map((part, i) =>
        part.kind === 'text' ? (
          <span key={i}>{part.text}</span>
        ) : (
          <a key={i} href={part.href} className="text-link" rel="nofollow ugc noopener" target="_blank">{part.href}</a>
        ),
      )}
    </p>
  )
}

interface CommentFormProps {
  label: string
  submitLabel: string
  initial?: string
  autoFocus?: boolean
  onSubmit: (body: string) => Promise<unknown>
  onCancel?: () => void
}

/** One text box for a comment, a reply or an edit; the server's refusal shows under it. */
function CommentForm({ label, submitLabel, initial = '', autoFocus, onSubmit, onCancel }: CommentFormProps) {
  const form = useForm<CommentValues>({ resolver: zodResolver(commentSchema), mode: 'onSubmit', defaultValues: { body: initial } })
  const { register, handleSubmit, formState, reset, watch } = form
  const showServerError = useServerErrors(form)
  const length = commentLength(watch('body'))
  const over = length - COMMENT_MAX
  const submit = handleSubmit(async ({ body }) => {
    try {
      await onSubmit(body)
      reset({ body: '' })
    } catch (error) {
      const message = messageOf(error, 'Failed to post your comment.')
      if (error instanceof ApiError && error.status === 429) toast.error(message)
      showServerError('body', message)
    }
  })
  return (
    <form className="stack cm-comment-form" onSubmit={submit} noValidate>
      {/* No maxLength: a longer paste is kept whole, and the count says how much to remove. */}
      <TextAreaField label={label} rows={3} autoFocus={autoFocus}
        hint={over > 0 ? `${length}/${COMMENT_MAX}: remove ${plural(over, 'character')} to post this.` : `${length}/${COMMENT_MAX}`}
        error={formState.errors.body?.message} {...register('body')} />
      <div className="row">
        <button type="submit" className="btn btn-primary btn-sm" disabled={formState.isSubmitting}>
          {formState.isSubmitting ? 'Sending...' : submitLabel}
        </button>
        {onCancel && <button type="button" className="btn btn-secondary btn-sm" onClick={onCancel} disabled={formState.isSubmitting}>Cancel</button>}
      </div>
    </form>
  )
}

interface CommentItemProps {
  comment: Comment
  setup: CommunitySetup
  viewer: { id: number; isAdmin: boolean } | null
  onChanged: () => Promise<unknown>
  onReport: (commentId: number) => void
}

/** A comment with what the viewer may do to it; a thread also lists its replies. */
function CommentItem({ comment, setup, viewer, onChanged, onReport }: CommentItemProps) {
  const [mode, setMode] = useState<'idle' | 'reply' | 'edit' | 'confirm-delete'>('idle')
  const mayDelete = !comment.deleted && viewer !== null && (comment.mine || viewer.isAdmin || viewer.id === setup.uploaderId)
  const who = comment.mine ? 'you' : comment.authorDisplayName || comment.authorUsername || 'a deleted comment'
  // The confirmation closes once the comment is gone: left open, a second click asked the
  // server to delete it again and got a 404.
  const remove = async () => {
    try {
      await deleteComment(comment.id)
      setMode('idle')
      await onChanged()
    } catch (error) {
      toast.error(messageOf(error, 'Failed to delete the comment.'))
      setMode('idle')
    }
  }
  return (
    <li className="stack cm-comment" data-testid="comment">
      {comment.deleted ? (
        <p className="muted">[deleted]</p>
      ) : (
        <>
          <div className="row cm-meta">
            <Link to={`/user/${comment.authorId}`} className="text-link">{comment.authorDisplayName || comment.authorUsername}</Link>
            {comment.authorIsPro && <ProBadge />}
            <span className="muted">{relativeTime(comment.createdAt)}{comment.editedAt ? ' · edited' : ''}</span>
          </div>
          {mode === 'edit' ? (
            <CommentForm label="Edit your comment" submitLabel="Save Comment" initial={comment.body ?? ''} autoFocus
              onSubmit={async (body) => { await editComment(comment.id, body); await onChanged(); setMode('idle') }}
              onCancel={() => setMode('idle')} />
          ) : (
            <CommentBody text={comment.body ?? ''} />
          )}
        </>
      )}
      {viewer && mode === 'idle' && (
        <div className="row cm-comment-actions">
          {comment.parentId === null && (
            <button type="button" className="btn btn-ghost btn-sm" aria-label={`Reply to ${who}`} onClick={() => setMode('reply')}>Reply</button>
          )}
          {comment.mine && !comment.deleted && canEdit(comment.createdAt) && (
            <button type="button" className="btn btn-ghost btn-sm" aria-label="Edit comment" onClick={() => setMode('edit')}>Edit</button>
          )}
          {mayDelete && (
            <button type="button" className="btn btn-ghost btn-sm" aria-label={`Delete comment by ${who}`} onClick={() => setMode('confirm-delete')}>Delete</button>
          )}
          {!comment.mine && !comment.deleted && (
            <button type="button" className="btn btn-ghost btn-sm" aria-label={`Report comment by ${who}`} onClick={() => onReport(comment.id)}>Report</button>
          )}
        </div>
      )}
      {mode === 'confirm-delete' && (
        <div className="row" role="group" aria-label="Delete this comment?">
          <span>Delete this comment?</span>
          <button type="button" className="btn btn-danger btn-sm" onClick={() => void remove()}>Delete comment</button>
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => setMode('idle')}>Cancel</button>
        </div>
      )}
      {mode === 'reply' && (
        <CommentForm label="Your reply" submitLabel="Post Reply" autoFocus
          onSubmit={async (body) => { await postComment({ setupId: setup.id, body, parentId: comment.id }); await onChanged(); setMode('idle') }}
          onCancel={() => setMode('idle')} />
      )}
      {comment.replies.length > 0 && (
        <ul className="stack cm-replies" aria-label="Replies">
          {comment.replies.map((reply) => <CommentItem key={reply.id} comment={reply} setup={setup} viewer={viewer} onChanged={onChanged} onReport={onReport} />)}
        </ul>
      )}
    </li>
  )
}

/**
 * The comments a thread shows, replies included and deleted ones aside, as the card counts
 * them: the page's total counts threads only, so three comments read "Comments (2)".
 */
function liveComments(comments: Comment[]): number {
  return comments.reduce((sum, c) => sum + (c.deleted ? 0 : 1) + liveComments(c.replies), 0)
}

/** The conversation under a setup: anyone reads it; signed-in members write, reply, edit and delete. */
export function CommentThread({ setup }: { setup: CommunitySetup }) {
  const { user, openAuth } = useAuth()
  const { data, isLoading, mutate } = useComments(setup.id)
  const refreshCommunity = useRefreshCommunity()
  const viewer = user ? { id: user.id, isAdmin: user.role === 'admin' } : null
  // The thread, and the comment counts on the cards and in My Posts.
  const changed = () => Promise.all([mutate(), refreshCommunity()])
  const count = data && !data.pagination.hasMore ? liveComments(data.comments) : setup.commentCount
  const [reporting, setReporting] = useState<number | null>(null)
  return (
    <section className="stack cm-comments" aria-label="Comments">
      <h3>Comments{count > 0 ? ` (${count})` : ''}</h3>
      {viewer ? (
        <CommentForm label="Add a comment" submitLabel="Post Comment" onSubmit={async (body) => { await postComment({ setupId: setup.id, body }); await changed() }} />
      ) : (
        <p>
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => openAuth('login')}>Log in to comment</button>
        </p>
      )}
      {isLoading && <p className="muted">Loading comments...</p>}
      {data && data.comments.length === 0 && <p className="muted">No comments yet. Ask about a part or say what you like.</p>}
      {data && data.comments.length > 0 && (
        <ul className="stack cm-comment-list">
          {data.comments.map((comment) => <CommentItem key={comment.id} comment={comment} setup={setup} viewer={viewer} onChanged={changed} onReport={setReporting} />)}
        </ul>
      )}
      <ReportDialog target={reporting === null ? null : { commentId: reporting }} onClose={() => setReporting(null)} />
    </section>
  )
}
