import * as Tabs from '@radix-ui/react-tabs'
import { useState } from 'react'
import { Modal } from '@/components/ui/Modal'
import { useAuth, type AuthTab } from '@/lib/auth'
import { ForgotPasswordForm } from './ForgotPasswordForm'
import { LoginForm } from './LoginForm'
import { RegisterForm } from './RegisterForm'

/** 'Welcome to SetupIQ': Log In and Register tabs, and the forgot-password view. */
export default function AuthDialog() {
  const { authDialog, openAuth, closeAuth } = useAuth()
  const [view, setView] = useState<'auth' | 'forgot'>('auth')

  const onOpenChange = (open: boolean) => {
    if (!open) {
      closeAuth()
      setView('auth')
    }
  }

  return (
    <Modal
      open={authDialog.open}
      onOpenChange={onOpenChange}
      title={view === 'auth' ? 'Welcome to SetupIQ' : 'Reset your password'}
      description={view === 'auth' ? (authDialog.reason ?? 'Log in or create a free account to get your setup rated.') : "Enter your account's email and we'll send you a reset link."}
    >
      {view === 'auth' ? (
        <Tabs.Root value={authDialog.tab} onValueChange={(tab) => openAuth(tab as AuthTab)}>
          <Tabs.List className="tabs-list" aria-label="Log in or register">
            <Tabs.Trigger className="tabs-trigger" value="login">Log In</Tabs.Trigger>
            <Tabs.Trigger className="tabs-trigger" value="register">Register</Tabs.Trigger>
          </Tabs.List>
          <Tabs.Content value="login">
            <LoginForm onDone={() => onOpenChange(false)} onForgot={() => setView('forgot')} />
          </Tabs.Content>
          <Tabs.Content value="register">
            <RegisterForm onDone={() => onOpenChange(false)} />
          </Tabs.Content>
        </Tabs.Root>
      ) : (
        <ForgotPasswordForm onBack={() => setView('auth')} />
      )}
    </Modal>
  )
}
