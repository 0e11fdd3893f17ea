import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { mockServer, renderApp, signedIn, signedOut } from '@/test-utils'
import { LoginForm } from './LoginForm'

afterEach(() => vi.unstubAllGlobals())

describe('LoginForm', () => {
  it('shows the specification messages before calling the server', async () => {
    const { calls } = mockServer({ 'GET /_api/auth/session': signedOut })
    renderApp(<LoginForm onDone={() => {}} />)
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }))
    expect(await screen.findByText('Email is required')).toBeInTheDocument()
    expect(screen.getByText('Password is required')).toBeInTheDocument()
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0)
  })

  it('shows the server message on failure and signs in on success', async () => {
    let attempts = 0
    const { calls } = mockServer({
      'GET /_api/auth/session': signedOut,
      'POST /_api/auth/login_with_password': () =>
        ++attempts === 1 ? { status: 401, body: { error: 'Invalid email or password.', code: 'unauthenticated' } } : signedIn(),
    })
    const onDone = vi.fn()
    renderApp(<LoginForm onDone={onDone} />)
    await userEvent.type(screen.getByLabelText('Email'), 'pete@example.com')
    await userEvent.type(screen.getByLabelText('Password'), 'wrong')
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password.')
    expect(onDone).not.toHaveBeenCalled()
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }))
    await waitFor(() => expect(onDone).toHaveBeenCalled())
    expect(calls.at(-1)).toEqual({ method: 'POST', path: '/_api/auth/login_with_password', body: { email: 'pete@example.com', password: 'wrong' } })
  })

  it('clears a stale server message as soon as a field is edited', async () => {
    mockServer({
      'GET /_api/auth/session': signedOut,
      'POST /_api/auth/login_with_password': { status: 401, body: { error: 'Invalid email or password.', code: 'unauthenticated' } },
    })
    renderApp(<LoginForm onDone={() => {}} />)
    await userEvent.type(screen.getByLabelText('Email'), 'pete@example.com')
    await userEvent.type(screen.getByLabelText('Password'), 'wrong')
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password.')
    await userEvent.type(screen.getByLabelText('Password'), '!')
    expect(screen.queryByText('Invalid email or password.')).not.toBeInTheDocument()
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
  })
})
