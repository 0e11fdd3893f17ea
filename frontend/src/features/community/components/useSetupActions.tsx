import { useState } from 'react'
import useSWRMutation from 'swr/mutation'
import { ApiError } from '@/api/client'
import { toast } from '@/lib/toast'
import { useAuth } from '@/lib/auth'
import { castVote, deleteSetup, editSetup, useRefreshCommunity, type CommunitySetup } from '../api'
import { applyVote, type VoteValue } from '../logic'
import { DeleteSetupDialog } from './DeleteSetupDialog'
import { EditDialog } from './EditDialog'
import { GearDialog } from './GearDialog'
import { ReportDialog } from './ReportDialog'
import { SetupDetailDialog } from './SetupDetailDialog'

/** A cache that holds setups: patched optimistically, restored on error. */
export interface SetupStore {
  setups: CommunitySetup[]
  snapshot: () => unknown
  restore: (snapshot: unknown) => void
  patch: (setupId: number, change: (setup: CommunitySetup) => CommunitySetup | null) => void
  /** After the server deleted one of them (a setup's own page leaves it). */
  onDeleted?: (setup: CommunitySetup) => void
  /** After the viewer reported one, which the server now hides from them (the feed counts it). */
  onReported?: (setupId: number) => void
}

/** A vote the server refused for a reason the member can act on (an unverified address). */
interface VoteRefusal {
  setupId: number
  message: string
}

/**
 * Votes, reports, edits and deletes of the setups of one list, with their dialogs. Votes,
 * edits and deletes are applied at once and rolled back when the server refuses (spec §4).
 * A vote refused as forbidden says why beside that setup's votes, as the comment box does;
 * any other failure is the specification's toast.
 */
export function useSetupActions(store: SetupStore) {
  const { user, openAuth } = useAuth()
  const refresh = useRefreshCommunity()
  const [openId, setOpenId] = useState<number | null>(null)
  const [reportId, setReportId] = useState<number | null>(null)
  const [voteRefusal, setVoteRefusal] = useState<VoteRefusal | null>(null)
  const [editing, setEditing] = useState<CommunitySetup | null>(null)
  // The post whose gear alone is being edited (its edit window has closed).
  const [editingGear, setEditingGear] = useState<CommunitySetup | null>(null)
  // The setup whose deletion is being confirmed, and its request.
  const [deleting, setDeleting] = useState<CommunitySetup | null>(null)
  const { trigger: triggerDelete, isMutating: deletePending } = useSWRMutation('/_api/community/setup/delete', (_path, { arg: setupId }: { arg: number }) => deleteSetup(setupId))
  const signedIn = user !== null

  const vote = async (setup: CommunitySetup, value: VoteValue) => {
    if (!signedIn) {
      openAuth('login')
      return
    }
    const before = store.snapshot()
    store.patch(setup.id, (s) => ({ ...s, ...applyVote(s.score, s.userVote, value) }))
    try {
      const result = await castVote(setup.id, value)
      store.patch(setup.id, (s) => ({ ...s, score: result.score, userVote: result.userVote ?? null }))
      setVoteRefusal((refusal) => (refusal?.setupId === setup.id ? null : refusal))
    } catch (error) {
      store.restore(before)
      if (error instanceof ApiError && error.status === 403) setVoteRefusal({ setupId: setup.id, message: error.message })
      else toast.error('Failed to cast vote.', { description: 'Your vote could not be saved.' })
    }
  }

  /** Why the server refused the member's last vote on this setup, if it did. */
  const refusalOf = (setupId: number) => (voteRefusal?.setupId === setupId ? voteRefusal.message : null)

  /** Runs once the owner confirmed in the 'Delete Setup' dialog, which stays open meanwhile. */
  const remove = async (setup: CommunitySetup) => {
    const before = store.snapshot()
    setOpenId(null)
    store.patch(setup.id, () => null)
    try {
      await triggerDelete(setup.id)
      toast.success('Setup deleted successfully.')
      store.onDeleted?.(setup)
    } catch (error) {
      store.restore(before)
      toast.error('Failed to delete setup.', { description: error instanceof Error ? error.message : undefined })
    }
    setDeleting(null)
    refresh()
  }

  const save = async (values: { setupId: number; images: string[]; title: string; description: string }) => {
    const before = store.snapshot()
    store.patch(values.setupId, (s) => ({
      ...s,
      title: values.title || null,
      description: values.description || null,
      images: values.images,
      imageUrl: values.images[0] ?? s.imageUrl,
      thumbnails: values.images.map((src) => (src.startsWith('data:') ? src : s.thumbnails[s.images.indexOf(src)] ?? src)),
    }))
    try {
      await editSetup(values)
    } catch (error) {
      store.restore(before)
      throw error
    } finally {
      refresh()
    }
  }

  const open = store.setups.find((s) => s.id === openId) ?? null
  const dialogs = (
    <>
      <SetupDetailDialog
        setup={open}
        onClose={() => setOpenId(null)}
        signedIn={signedIn}
        viewerId={user?.id ?? null}
        onVote={(s, v) => void vote(s, v)}
        voteRefusal={open ? refusalOf(open.id) : null}
        onReport={(s) => setReportId(s.id)}
        onEdit={(s) => {
          setOpenId(null)
          setEditing(s)
        }}
        onDelete={(s) => setDeleting(s)}
        onLogin={() => openAuth('login')}
      />
      <ReportDialog
        target={reportId === null ? null : { setupId: reportId }}
        onClose={() => setReportId(null)}
        // The server hides a setup from the member who reported it: the lists in the cache
        // drop it at once, as a reload would.
        onReported={() => {
          if (reportId === null) return
          setOpenId(null)
          store.patch(reportId, () => null)
          store.onReported?.(reportId)
        }}
      />
      <DeleteSetupDialog setup={deleting} pending={deletePending} onConfirm={(s) => void remove(s)} onCancel={() => setDeleting(null)} />
      {editing && <EditDialog setup={editing} onClose={() => setEditing(null)} onSave={save} />}
      {editingGear && <GearDialog setup={editingGear} onClose={() => setEditingGear(null)} onSaved={refresh} />}
    </>
  )
  return {
    signedIn,
    viewerId: user?.id ?? null,
    vote,
    voteRefusal: refusalOf,
    openSetup: (s: CommunitySetup) => setOpenId(s.id),
    /** What a setup's own page offers beside its votes: report it, or (the owner) edit and delete it. */
    report: (s: CommunitySetup) => (signedIn ? setReportId(s.id) : openAuth('login')),
    edit: (s: CommunitySetup) => setEditing(s),
    /** The owner's gear of a post past its edit window: a dead link stays fixable. */
    editGear: (s: CommunitySetup) => setEditingGear(s),
    askDelete: (s: CommunitySetup) => setDeleting(s),
    dialogs,
  }
}
