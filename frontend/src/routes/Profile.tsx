import { zodResolver } from '@hookform/resolvers/zod'
import { useRef, useState, type ChangeEvent } from 'react'
import { useForm } from 'react-hook-form'
import { z } from 'zod'
import { Link } from 'react-router-dom'
import { toast } from '@/lib/toast'
import { LockKeyhole } from 'lucide-react'
import { messageOf, type User } from '@/api/client'
import { Avatar } from '@/components/ui/Avatar'
import { Field } from '@/components/ui/Field'
import { Skeleton } from '@/components/ui/Skeleton'
import { SetupHistory } from '@/features/analysis/components/HistoryGrids'
import { ScoreHistory } from '@/features/analysis/components/ScoreHistory'
import { EXPORT_URL, updateDisplayName, updateProfile, uploadProfilePicture } from '@/features/auth/api'
import { ActiveSessions } from '@/features/auth/components/ActiveSessions'
import { ChangeEmailForm } from '@/features/auth/components/ChangeEmailForm'
import { ChangePasswordForm } from '@/features/auth/components/ChangePasswordForm'
import { MembershipRow } from '@/features/credits/components/Membership'
import { PaymentHistory } from '@/features/credits/components/PaymentHistory'
import { useAuth } from '@/lib/auth'
import { displayNameSchema, usernameSchema } from '@/features/auth/schemas'
import { downscaleToJpegDataUrl } from '@/lib/imageDownscale'
import { usePageTitle } from '@/lib/usePageTitle'

export default function Profile() {
  usePageTitle('My Profile')
  const { state, openAuth } = useAuth()
  if (state.status === 'loading') {
    return (
      <div className="container stack" role="status" aria-busy="true">
        <span className="sr-only">Loading profile</span>
        <Skeleton height={112} width={112} />
        <Skeleton height={28} width="40%" />
        <Skeleton height={180} />
      </div>
    )
  }
  if (state.status === 'unauthenticated') {
    return (
      <div className="container state">
        <div className="state-icon" aria-hidden="true"><LockKeyhole aria-hidden="true" /></div>
        <h1>Please Log In</h1>
        <p className="muted">Log in to see and edit your profile.</p>
        <div className="row">
          <button type="button" className="btn btn-primary" onClick={() => openAuth('login')}>Log In</button>
          <Link to="/" className="btn btn-secondary">Go to Homepage</Link>
        </div>
      </div>
    )
  }
  return <ProfileView user={state.user} />
}

/** One field's rules as the `{ value }` shape an editable row's form holds. */
const asValue = (rule: z.ZodType<string, string>) => z.object({ value: rule })

function ProfileView({ user }: { user: User }) {
  return (
    <div className="container stack" style={{ gap: '1.5rem' }}>
      <section className="card profile-head" aria-label="Profile">
        <AvatarUpload user={user} />
        <div className="stack" style={{ gap: '0.4rem' }}>
          <h1 style={{ fontSize: '2rem', margin: 0 }}>{user.displayName}</h1>
          <p className="muted" style={{ margin: 0 }}>@{user.username}</p>
          <span className={user.isPro ? 'badge badge-pro' : 'badge'}>{user.isPro ? 'Pro Member' : 'Free Member'}</span>
        </div>
      </section>
      <section className="card" aria-labelledby="account-info">
        <h2 id="account-info">Account Info</h2>
        <dl style={{ margin: 0 }}>
          <EditableRow label="Display name" testId="display-name" value={user.displayName} hint="Shown on your profile and your posts."
            schema={asValue(displayNameSchema.shape.displayName)} save={(displayName) => updateDisplayName({ displayName })} />
          <EditableRow label="Username" testId="username" value={user.username} hint="3-50 letters, numbers or underscores."
            schema={asValue(usernameSchema.shape.username)} save={(username) => updateProfile({ username })} />
          <EmailRow email={user.email} />
          <MembershipRow />
          <div className="info-row">
            <dt>Credits</dt>
            <dd>{user.isPro ? `${user.credits} · analyses are unlimited with Pro` : user.credits}</dd>
          </div>
          <div className="info-row">
            <dt>Member since</dt>
            <dd>{new Date(user.createdAt).toLocaleDateString('en-US', { month: 'long', year: 'numeric' })}</dd>
          </div>
        </dl>
      </section>
      <section className="card stack" aria-labelledby="security">
        <h2 id="security">Password and Devices</h2>
        <ChangePasswordForm />
        <ActiveSessions />
      </section>
      <section className="card stack" aria-labelledby="payments">
        <h2 id="payments">Payments and Receipts</h2>
        <PaymentHistory />
      </section>
      <section className="card stack" aria-labelledby="your-data">
        <h2 id="your-data">Your Data</h2>
        <div className="row">
          <p className="muted" style={{ margin: 0, flex: '1 1 16rem' }}>
            One JSON file with everything your account holds: profile, analyses and their photos' links, posts,
            votes and reports, your RigPage, credits and payments.
          </p>
          <a className="btn btn-secondary" href={EXPORT_URL} download>Download My Data</a>
        </div>
      </section>
      <ScoreHistory />
      <section className="card" aria-labelledby="history">
        <h2 id="history">Setup History</h2>
        <SetupHistory />
      </section>
    </div>
  )
}

function AvatarUpload({ user }: { user: User }) {
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
function EmailRow({ email }: { email: string }) {
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
