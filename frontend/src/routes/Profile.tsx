import { zodResolver } from '@hookform/resolvers/zod'
import { useRef, useState, type ChangeEvent } from 'react'
import { useForm } from 'react-hook-form'
import { Link } from 'react-router-dom'
import { toast } from 'sonner'
import { LockKeyhole } from 'lucide-react'
import { messageOf, type User } from '@/api/client'
import { Avatar } from '@/components/ui/Avatar'
import { Field } from '@/components/ui/Field'
import { Skeleton } from '@/components/ui/Skeleton'
import { SetupHistory } from '@/features/analysis/components/HistoryGrids'
import { ScoreHistory } from '@/features/analysis/components/ScoreHistory'
import { updateProfile, uploadProfilePicture } from '@/features/auth/api'
import { useAuth } from '@/app/auth'
import { usernameSchema, type UsernameValues } from '@/features/auth/schemas'
import { downscaleToJpegDataUrl } from '@/lib/imageDownscale'
import { usePageTitle } from '@/lib/usePageTitle'

export default function Profile() {
  usePageTitle('My Profile')
  const { state } = useAuth()
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
        <Link to="/" className="btn btn-primary">Go to Homepage</Link>
      </div>
    )
  }
  return <ProfileView user={state.user} />
}

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
          <UsernameRow user={user} />
          <div className="info-row">
            <dt>Email</dt>
            <dd>{user.email}</dd>
          </div>
          <div className="info-row">
            <dt>Membership</dt>
            <dd className="row">
              {user.isPro ? 'Pro' : 'Free'}
              {!user.isPro && <Link to="/#pricing" className="btn btn-secondary btn-sm">Upgrade to Pro</Link>}
            </dd>
          </div>
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

function UsernameRow({ user }: { user: User }) {
  const { setUser } = useAuth()
  const [editing, setEditing] = useState(false)
  const { register, handleSubmit, formState, reset, watch, setError } = useForm<UsernameValues>({
    resolver: zodResolver(usernameSchema),
    mode: 'onTouched',
    defaultValues: { username: user.username },
  })
  const unchanged = watch('username') === user.username

  const cancel = () => {
    reset({ username: user.username })
    setEditing(false)
  }

  const onSubmit = handleSubmit(async (values) => {
    try {
      const updated = await updateProfile(values)
      setUser(updated)
      reset({ username: updated.username })
      setEditing(false)
      toast.success('Profile updated successfully!')
    } catch (error) {
      const message = messageOf(error, 'Failed to update profile.')
      setError('username', { message })
      toast.error(message)
    }
  })

  if (!editing) {
    return (
      <div className="info-row">
        <dt>Username</dt>
        <dd className="row">
          <span data-testid="username">{user.username}</span>
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => setEditing(true)}>Edit</button>
        </dd>
      </div>
    )
  }
  return (
    <div className="info-row">
      <dt className="sr-only">Username</dt>
      <dd style={{ width: '100%' }}>
        <form className="stack" onSubmit={onSubmit} noValidate>
          <Field label="Username" autoFocus error={formState.errors.username?.message} hint="3-50 letters, numbers or underscores." {...register('username')} />
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
