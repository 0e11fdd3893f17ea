import { useState } from 'react'
import { messageOf } from '@/api/client'
import { resendVerificationEmail } from '@/features/auth/api'

/**
 * "Resend": asks for a new verification link and says what happened next to the button
 * (sent, or why not: the hourly limit, a mail outage).
 */
export function ResendVerification({ className = 'btn btn-secondary btn-sm' }: { className?: string }) {
  const [state, setState] = useState<{ status: 'idle' | 'sending' } | { status: 'sent' | 'failed'; message: string }>({ status: 'idle' })

  async function resend() {
    setState({ status: 'sending' })
    try {
      setState({ status: 'sent', message: await resendVerificationEmail() })
    } catch (error) {
      setState({ status: 'failed', message: messageOf(error, 'The e-mail could not be sent. Please try again.') })
    }
  }

  return (
    <>
      <button type="button" className={className} onClick={() => void resend()} disabled={state.status === 'sending'}>
        {state.status === 'sending' ? 'Sending...' : 'Resend'}
      </button>
      {(state.status === 'sent' || state.status === 'failed') && (
        <span className={state.status === 'failed' ? 'resend-result resend-failed' : 'resend-result'} role={state.status === 'failed' ? 'alert' : 'status'}>
          {state.message}
        </span>
      )}
    </>
  )
}
