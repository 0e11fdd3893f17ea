import { useRef } from 'react'
import { toast } from '@/lib/toast'
import { useSWRConfig } from 'swr'
import useSWRMutation from 'swr/mutation'
import { messageOf, type Schemas } from '@/api/client'
import { Modal } from '@/components/ui/Modal'
import { deleteAnalysis, MY_ANALYSES_KEY, type SavedAnalysis } from '../api'

const DELETE_ANALYSIS_CONFIRM = 'Are you sure you want to delete this analysis? This action cannot be undone.'
const DELETE_ANALYSIS_SCOPE = 'Its photo, its share link and any community post made from it are deleted too.'

interface DeleteAnalysisDialogProps {
  /** The analysis to delete; null keeps the dialog closed. */
  analysis: SavedAnalysis | null
  onClose: () => void
  /** Called once the server deleted it (the history is already updated). */
  onDeleted?: ((analysis: SavedAnalysis) => void) | undefined
  /** Where focus goes after a deletion (the card that opened the dialog is gone); Cancel returns it to the opener. */
  focusAfterDelete?: (() => HTMLElement | null | undefined) | undefined
}

/**
 * 'Delete Analysis' on My Setups: the owner confirms, then the analysis goes for good. The
 * history (My Setups, the profile's score history) drops it at once and is read again;
 * nothing closes the dialog while the request runs.
 */
export function DeleteAnalysisDialog({ analysis, onClose, onDeleted, focusAfterDelete }: DeleteAnalysisDialogProps) {
  const { mutate } = useSWRConfig()
  const { trigger: remove, isMutating: pending } = useSWRMutation('/_api/analyses/{id}/delete', (_path, { arg: id }: { arg: number }) => deleteAnalysis(id))
  const deleted = useRef(false)

  const confirm = async (target: SavedAnalysis) => {
    deleted.current = false
    try {
      await remove(target.id)
      deleted.current = true
      void mutate<Schemas['MyAnalysesResponse']>(MY_ANALYSES_KEY, (current) =>
        current && { analyses: current.analyses.filter((a) => a.id !== target.id), total: Math.max(0, current.total - 1) },
      )
      toast.success('Analysis deleted.')
      onDeleted?.(target)
      onClose()
    } catch (error) {
      toast.error(messageOf(error, 'Failed to delete analysis.'))
    }
  }

  return (
    <Modal
      open={analysis !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Delete Analysis"
      description={
        <>
          {DELETE_ANALYSIS_CONFIRM}{' '}
          <span className="dialog-description-line">{DELETE_ANALYSIS_SCOPE}</span>
        </>
      }
      dismissible={!pending}
      finalFocus={() => (deleted.current ? focusAfterDelete?.() : null)}
    >
      <div className="dialog-actions">
        <button type="button" className="btn btn-secondary" onClick={onClose} disabled={pending}>Cancel</button>
        <button type="button" className="btn btn-danger" onClick={() => analysis && void confirm(analysis)} disabled={pending}>
          {pending ? 'Deleting...' : 'Delete'}
        </button>
      </div>
    </Modal>
  )
}
