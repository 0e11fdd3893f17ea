/** The member's own details on My Profile, edited in place: the photo, the display name and
 * username (one-field forms), and the address (a form that mails a link to the new one). */
import { zodResolver } from '@hookform/resolvers/zod'
import { useRef, useState, type ChangeEvent } from 'react'
import { useForm } from 'react-hook-form'
import { z } from 'zod'
import { toast } from '@/lib/toast'
import { messageOf, type User } from '@/api/client'
import { Avatar } from '@/components/ui/Avatar'
import { Field } from '@/components/ui/Field'
import { updateDisplayName, updateProfile, uploadProfilePicture } from '../api'
import { displayNameSchema, usernameSchema } from '../schemas'
import { ChangeEmailForm } from './ChangeEmailForm'
import { useAuth } from '@/lib/auth'
import { downscaleToJpegDataUrl } from '@/lib/imageDownscale'

/** One field's rules as the `{ value }` shape an editable row's form holds. */
const asValue = (rule: z.ZodType<string, string>) => z.object({ value: rule })

/** The display name and username rows of Account Info. */
export function NameRows({ user }: { user: User }) {
  return (
    <>
      <EditableRow label="Display name" testId="display-name" value={user.displayName} hint="Shown on your profile and your posts."
        schema={asValue(displayNameSchema.shape.displayName)} save={(displayName) => updateDisplayName({ displayName })} />
      <EditableRow label="Username" testId="username" value={user.username} hint="3-50 letters, numbers or underscores."
        schema={asValue(usernameSchema.shape.username)} save={(username) => updateProfile({ username })} />
    </>
  )
}

export function AvatarUpload({ user }: { user: User }) {
  const { setUser } = useAuth()
  const input = useRef<HTMLInputElement>(null)
  const [pending, setPending] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0]
    event.target.value = ''
    if (!file) return
    setProblem(null)
    if (!['image/png', 'image/jpeg'].includes(file.type)) {
      setProblem('Failed to process image: please choose a PNG or JPEG file.')
      return
    }
    setPending(true)
    try {
      let dataUrl: string
      try {
        dataUrl = await downscaleToJpegDataUrl(file, 800, 800, 0.85)
      } catch (error) {
        setProblem(`Failed to process image: ${messageOf(error, 'Failed to read file')}`)
        return
      }
      setUser(await uploadProfilePicture(dataUrl))
      toast.success('Profile picture updated successfully!')
    } catch (error) {
      toast.error(messageOf(error, 'Failed to upload profile picture.'))
    } finally {
      setPending(false)
    }
  }

  return (
    <div className="stack" style={{ alignItems: 'center', gap: '0.5rem' }}>
      <Avatar username={user.username} email={user.email} src={user.profilePicture} isPro={user.isPro} large />
      <input ref={input} type="file" accept="image/png,image/jpeg" className="sr-only" id="profile-photo" onChange={onFile} disabled={pending} />
      <label htmlFor="profile-photo" className="btn btn-secondary btn-sm" role="button" aria-disabled={pending} tabIndex={0}
        onKeyDown={(e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); input.current?.click() } }}>
        {pending ? 'Uploading...' : 'Change Photo'}
      </label>
      {problem && <p className="field-error" role="alert">{problem}</p>}
    </div>
  )
}

/** The address, with "Change" opening the form that mails a link to the new one. */
export function EmailRow({ email }: { email: string }) {
  const [editing, setEditing] = useState(false)
  if (!editing) {
    return (
      <div className="info-row">
        <dt>Email</dt>
        <dd className="row">
          <span data-testid="email">{email}</span>
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => setEditing(true)} aria-label="Change e-mail address">Change</button>
        </dd>
      </div>
    )
  }
  return (
    <div className="info-row">
      <dt className="sr-only">Email</dt>
      <dd style={{ width: '100%' }}>
        <ChangeEmailForm onDone={() => setEditing(false)} />
      </dd>
    </div>
  )
}

/** A row of Account Info the member edits in place: its value, Edit, then a one-field form. */
function EditableRow({ label, testId, value, hint, schema, save }: {
  label: string
  testId: string
  value: string
  hint: string
  schema: z.ZodType<{ value: string }, { value: string }>
  save: (value: string) => Promise<User>
}) {
  const { setUser } = useAuth()
  const [editing, setEditing] = useState(false)
  const { register, handleSubmit, formState, reset, watch, setError } = useForm<{ value: string }>({
    resolver: zodResolver(schema),
    mode: 'onTouched',
    defaultValues: { value },
  })
  const unchanged = watch('value') === value

  const cancel = () => {
    reset({ value })
    setEditing(false)
  }

  const onSubmit = handleSubmit(async (values) => {
    try {
      const updated = await save(values.value)
      setUser(updated)
      setEditing(false)
      toast.success('Profile updated successfully!')
    } catch (error) {
      const message = messageOf(error, 'Failed to update profile.')
      setError('value', { message })
      toast.error(message)
    }
  })

  if (!editing) {
    return (
      <div className="info-row">
        <dt>{label}</dt>
        <dd className="row">
          <span data-testid={testId}>{value}</span>
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => { reset({ value }); setEditing(true) }} aria-label={`Edit ${label.toLowerCase()}`}>Edit</button>
        </dd>
      </div>
    )
  }
  return (
    <div className="info-row">
      <dt className="sr-only">{label}</dt>
      <dd style={{ width: '100%' }}>
        <form className="stack" onSubmit={onSubmit} noValidate>
          <Field label={label} autoFocus error={formState.errors.value?.message} hint={hint} {...register('value')} />
          <div className="row">
            <button type="submit" className="btn btn-primary btn-sm" disabled={unchanged || formState.isSubmitting}>
              {formState.isSubmitting ? 'Saving...' : 'Save'}
            </button>
            <button type="button" className="btn btn-secondary btn-sm" onClick={cancel} disabled={formState.isSubmitting}>Cancel</button>
          </div>
        </form>
      </dd>
    </div>
  )
}
