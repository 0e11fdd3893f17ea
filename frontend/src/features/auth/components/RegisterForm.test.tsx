import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Toaster } from 'sonner'
import { mockServer, renderApp, signedIn, signedOut } from '@/test-utils'
import { NO_SIGNUP_BONUS } from '../api'
import { RegisterForm } from './RegisterForm'

afterEach(() => vi.unstubAllGlobals())

async function signUp() {
  await userEvent.type(screen.getByLabelText('Display Name'), 'Pixel Pete')
  await userEvent.type(screen.getByLabelText('Email'), 'pete@example.com')
  await userEvent.type(screen.getByLabelText('Password'), 'hunter2hunter2')
  await userEvent.click(screen.getByRole('button', { name: /Create Account/ }))
}

/** Signs up in the form with toasts shown, and waits until the form is done. */
async function signUpWithToasts() {
  const onDone = vi.fn()
  renderApp(
    <>
      <RegisterForm onDone={onDone} />
      <Toaster />
    </>,
  )
  await signUp()
  await waitFor(() => expect(onDone).toHaveBeenCalled())
}

function registered(credits: number) {
  const { user } = signedIn({ credits }).body as { user: Record<string, unknown> }
  return () => ({ status: 201, body: { user, signupBonus: credits } })
}

describe('RegisterForm', () => {
  it('welcomes a new account with its free credits', async () => {
    mockServer({ 'GET /_api/auth/session': signedOut, 'POST /_api/auth/register_with_password': registered(3) })
    await signUpWithToasts()
    expect(await screen.findByText('You have 3 free credits.')).toBeInTheDocument()
  })

  it('says why an account starts without the signup bonus', async () => {
    mockServer({ 'GET /_api/auth/session': signedOut, 'POST /_api/auth/register_with_password': registered(0) })
    await signUpWithToasts()
    expect(await screen.findByText(NO_SIGNUP_BONUS)).toBeInTheDocument()
    expect(screen.queryByText('You have 0 free credits.')).not.toBeInTheDocument()
  })

  it('shows the server message when the network has made too many accounts', async () => {
    const message = 'Too many new accounts from your network. Please try again in 60 minute(s).'
    mockServer({
      'GET /_api/auth/session': signedOut,
      'POST /_api/auth/register_with_password': () => ({ status: 429, body: { error: message, code: 'rate_limited' } }),
    })
    renderApp(<RegisterForm onDone={() => {}} />)
    await signUp()
    expect(await screen.findByRole('alert')).toHaveTextContent(message)
  })

  it("shows the server's refusal of a common password under the password field", async () => {
    const message = 'Password must be at least 8 characters'
    const { calls } = mockServer({
      'GET /_api/auth/session': signedOut,
      'POST /_api/auth/register_with_password': () => ({ status: 400, body: { error: message, code: 'validation_failed', issues: [{ path: 'password', message }] } }),
    })
    renderApp(<RegisterForm onDone={() => {}} />)
    await userEvent.type(screen.getByLabelText('Display Name'), 'Pixel Pete')
    await userEvent.type(screen.getByLabelText('Email'), 'pete@example.com')
    const password = screen.getByLabelText('Password')
    await userEvent.type(password, 'password1')
    await userEvent.click(screen.getByRole('button', { name: /Create Account/ }))
    await waitFor(() => expect(password).toHaveAccessibleDescription(new RegExp(message)))
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({ password: 'password1' })
  })

  it('counts a single free credit in the singular', async () => {
    mockServer({ 'GET /_api/auth/session': signedOut, 'POST /_api/auth/register_with_password': registered(1) })
    await signUpWithToasts()
    expect(await screen.findByText('You have 1 free credit.')).toBeInTheDocument()
  })

  it('clears a stale server message as soon as a field is edited', async () => {
    mockServer({
      'GET /_api/auth/session': signedOut,
      'POST /_api/auth/register_with_password': { status: 409, body: { error: 'Email already in use', code: 'email_taken' } },
    })
    renderApp(<RegisterForm onDone={() => {}} />)
    await signUp()
    expect(await screen.findByRole('alert')).toHaveTextContent('This email is already registered. Please try logging in instead.')
    await userEvent.clear(screen.getByLabelText('Email'))
    expect(screen.queryByText('This email is already registered. Please try logging in instead.')).not.toBeInTheDocument()
  })
})
