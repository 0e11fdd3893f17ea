import { Link } from 'react-router-dom'
import { LockKeyhole } from 'lucide-react'
import { type User } from '@/api/client'
import { Skeleton } from '@/components/ui/Skeleton'
import { SetupHistory } from '@/features/analysis/components/HistoryGrids'
import { ScoreHistory } from '@/features/analysis/components/ScoreHistory'
import { EXPORT_URL } from '@/features/auth/api'
import { ActiveSessions } from '@/features/auth/components/ActiveSessions'
import { ChangePasswordForm } from '@/features/auth/components/ChangePasswordForm'
import { AvatarUpload, EmailRow, NameRows } from '@/features/auth/components/ProfileForm'
import { MembershipRow } from '@/features/credits/components/Membership'
import { PaymentHistory } from '@/features/credits/components/PaymentHistory'
import { useAuth } from '@/lib/auth'
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
          <NameRows user={user} />
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
