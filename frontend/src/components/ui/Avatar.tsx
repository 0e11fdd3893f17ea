import { initials } from '@/lib/initials'

interface AvatarProps {
  username?: string | null
  email?: string | null
  src?: string | null
  isPro?: boolean
  large?: boolean
}

/** The profile picture, or initials, or a generic icon; Pro members glow. */
export function Avatar({ username, email, src, isPro, large }: AvatarProps) {
  const text = initials(username, email)
  const className = ['avatar', isPro ? 'avatar-pro' : '', large ? 'avatar-lg' : ''].filter(Boolean).join(' ')
  return (
    <span className={className} data-testid="avatar">
      {src ? (
        <img src={src} alt="" />
      ) : text ? (
        <span aria-hidden="true">{text}</span>
      ) : (
        <svg aria-hidden="true" width="60%" height="60%" viewBox="0 0 24 24" fill="currentColor"><path d="M12 12a5 5 0 1 0 0-10 5 5 0 0 0 0 10zm0 2c-4.4 0-8 2.2-8 5v1h16v-1c0-2.8-3.6-5-8-5z" /></svg>
      )}
    </span>
  )
}
