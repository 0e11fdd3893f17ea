import { useEffect, useRef } from 'react'
import { useNavigate } from 'react-router-dom'
import { LockKeyhole, TriangleAlert } from 'lucide-react'
import { messageOf } from '@/api/client'
import { Skeleton } from '@/components/ui/Skeleton'
import { useAuth } from '@/lib/auth'
import { useEditor } from '../api'
import type { Editor } from '../draft'
import { useRigpageEditor } from '../useRigpageEditor'
import { BackgroundSection } from './BackgroundSection'
import { CreditConfirmDialog } from './CreditConfirmDialog'
import { EditorHeader } from './EditorHeader'
import { LinksSection } from './LinksSection'
import { PageSection } from './PageSection'
import { PreviewPane } from './PreviewPane'
import { ProfileSection } from './ProfileSection'
import { PublishBar } from './PublishBar'
import { SectionsSection } from './SectionsSection'
import { SetupSection } from './SetupSection'
import { ShareSection } from './ShareSection'
import { SocialLinksSection } from './SocialLinksSection'
import { StyleSection } from './StyleSection'
import { ThemeSection } from './ThemeSection'

export { GO_LIVE_NEEDS } from '../useRigpageEditor'

function EditorSkeleton() {
  return (
    <div className="container stack" role="status" aria-busy="true">
      <span className="sr-only">Loading your RigPage</span>
      <Skeleton height={40} width="50%" />
      <Skeleton height={96} />
      <div className="rp-layout">
        <Skeleton height={480} />
        <Skeleton height={480} />
      </div>
    </div>
  )
}

/** Why a visitor who opened the editor is asked to sign in. */
const RIGPAGE_SIGN_IN = 'Log in or create a free account to build your RigPage: one public link for your setup, your gear and your socials.'

/**
 * The RigPage editor (/rigpage-config, spec §2, §4, §5, §8): visitors get the sign-in
 * dialog (closing it goes home); members edit their page beside a live preview.
 */
export function RigpageEditorPage() {
  const { state, authDialog, openAuth } = useAuth()
  const navigate = useNavigate()
  const asked = useRef(false)
  const signedIn = state.status === 'authenticated'
  const editor = useEditor(signedIn)

  useEffect(() => {
    if (state.status !== 'unauthenticated') {
      asked.current = false
      return
    }
    if (authDialog.open) {
      asked.current = true
    } else if (asked.current) {
      navigate('/', { replace: true })
    } else {
      openAuth('login', RIGPAGE_SIGN_IN)
    }
  }, [state.status, authDialog.open, openAuth, navigate])

  if (state.status === 'unauthenticated') {
    return (
      <div className="container state">
        <div className="state-icon" aria-hidden="true"><LockKeyhole aria-hidden="true" /></div>
        <h1>Create Your Link in Bio</h1>
        <p className="muted">Log in to build your RigPage.</p>
        <button type="button" className="btn btn-primary" onClick={() => openAuth('login', RIGPAGE_SIGN_IN)}>Log In</button>
      </div>
    )
  }
  if (state.status === 'loading' || (!editor.data && !editor.error)) return <EditorSkeleton />
  if (!editor.data) {
    return (
      <div className="container state">
        <div className="state-icon" aria-hidden="true"><TriangleAlert aria-hidden="true" /></div>
        <h1>Create Your Link in Bio</h1>
        <p className="form-error" role="alert">{messageOf(editor.error, 'Failed to fetch RigPage config.')}</p>
        <button type="button" className="btn btn-secondary" onClick={() => void editor.mutate()}>Try Again</button>
      </div>
    )
  }
  return <EditorForm editor={editor.data} />
}

/**
 * The editor beside its live preview: the sections in the order of the page, then the save
 * and publish bar; the state and the actions are `useRigpageEditor`'s.
 */
export function EditorForm({ editor }: { editor: Editor }) {
  const form = useRigpageEditor(editor)
  return (
    <div className="container stack rp-page">
      <EditorHeader bestScore={editor.bestScore} />

      <div className="rp-layout">
        <div className="stack rp-form" id="rp-form">
          <ThemeSection form={form} />
          <PageSection form={form} />
          <SetupSection form={form} />
          <ProfileSection form={form} />
          <SocialLinksSection form={form} />
          <StyleSection form={form} />
          <BackgroundSection form={form} />
          <SectionsSection form={form} />
          <LinksSection form={form} />
          <ShareSection editor={editor} />
          <PublishBar form={form} />
        </div>

        <aside className="rp-aside" aria-label="Preview" id="rp-preview">
          <PreviewPane request={form.previewed} behind={form.behind} />
          <a href="#rp-form" className="btn btn-secondary rp-preview-back">Back to editing</a>
        </aside>
      </div>

      <CreditConfirmDialog
        open={form.dialog !== null}
        action={form.dialog?.action ?? 'publish'}
        cost={form.dialogCost}
        balance={form.balance}
        freeLinks={editor.freeLinks}
        linksPerBatch={editor.linksPerBatch}
        pending={form.isSubmitting}
        onCancel={form.cancelDialog}
        onConfirm={form.confirmDialog}
      />
    </div>
  )
}
