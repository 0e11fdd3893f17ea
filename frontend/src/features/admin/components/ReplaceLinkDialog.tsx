import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import { toast } from '@/lib/toast'
import { messageOf } from '@/api/client'
import { Field } from '@/components/ui/Field'
import { Modal } from '@/components/ui/Modal'
import { replaceLink, type LinkProblem } from '../api'
import { UNKNOWN_ERROR } from '../logic'
import { replaceLinkSchema, type ReplaceLinkValues } from '../schemas'

/** 'Replace link': a new http(s) address for one product; its health starts over. */
export function ReplaceLinkDialog({ link, onClose, onDone }: { link: LinkProblem; onClose: () => void; onDone: () => void }) {
  const { register, handleSubmit, formState } = useForm<ReplaceLinkValues>({
    resolver: zodResolver(replaceLinkSchema),
    mode: 'onTouched',
    defaultValues: { productId: link.productId, url: link.url },
  })
  const pending = formState.isSubmitting
  const onSubmit = handleSubmit(async (values) => {
    try {
      await replaceLink(values)
      toast.success('Link replaced.', { description: link.name })
      onDone()
      onClose()
    } catch (error) {
      toast.error('Failed to replace the link.', { description: messageOf(error, UNKNOWN_ERROR) })
    }
  })
  return (
    <Modal open onOpenChange={(open) => !open && onClose()} title="Replace link" description={`A new affiliate link for ${link.name}.`} dismissible={!pending}>
      <form className="stack" onSubmit={onSubmit} noValidate>
        <Field label="New URL" type="url" inputMode="url" autoComplete="off" error={formState.errors.url?.message} {...register('url')} />
        <div className="row dialog-actions">
          <button type="button" className="btn btn-secondary" onClick={onClose} disabled={pending}>Cancel</button>
          <button type="submit" className="btn btn-primary" disabled={pending}>{pending ? 'Saving...' : 'Replace link'}</button>
        </div>
      </form>
    </Modal>
  )
}
