import { useId, useRef, type ChangeEvent } from 'react'
import useSWRMutation from 'swr/mutation'
import { toast } from '@/lib/toast'
import { ApiError } from '@/api/client'
import { uploadImage, type ImageKind } from '../api'
import { imageProblem } from '../draft'
import { readAsDataUrl } from '../image'

interface ImageUploadProps {
  kind: ImageKind
  /** The file input's accessible name, e.g. "Avatar image". */
  label: string
  /** The visible button text. */
  buttonText: string
  onUploaded: (url: string) => void
  successMessage?: string
  failureMessage: string
  disabled?: boolean
}

/**
 * Picks an image, checks it (PNG, JPEG or WebP, at most 5 MB) and uploads it; the URL goes
 * into the draft, which a save keeps (spec §5, §8).
 */
export function ImageUpload({ kind, label, buttonText, onUploaded, successMessage, failureMessage, disabled }: ImageUploadProps) {
  const id = useId()
  const input = useRef<HTMLInputElement>(null)
  // Reading the file is part of the upload: the button waits for both.
  const { trigger: upload, isMutating: pending } = useSWRMutation('/_api/rigpage/images', async (_path, { arg: file }: { arg: File }) =>
    uploadImage(kind, await readAsDataUrl(file)),
  )

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0]
    event.target.value = ''
    if (!file) return
    const problem = imageProblem(file)
    if (problem) {
      toast.error(problem)
      return
    }
    try {
      onUploaded(await upload(file))
      if (successMessage) toast.success(successMessage)
    } catch (error) {
      // The server's reason (too large, too many uploads) helps; the headline is the spec's.
      const description = error instanceof ApiError && error.message ? error.message : undefined
      toast.error(failureMessage, description ? { description } : undefined)
    }
  }

  return (
    <>
      <label htmlFor={id} className="sr-only">{label}</label>
      <input
        ref={input}
        id={id}
        type="file"
        accept="image/png,image/jpeg,image/webp"
        className="sr-only"
        tabIndex={-1}
        onChange={onFile}
        disabled={disabled || pending}
      />
      <button type="button" className="btn btn-secondary btn-sm" onClick={() => input.current?.click()} disabled={disabled || pending}>
        {pending ? 'Uploading...' : buttonText}
      </button>
    </>
  )
}
