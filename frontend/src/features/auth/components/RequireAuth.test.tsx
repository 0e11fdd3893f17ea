import { screen } from '@testing-library/react'
import { Route, Routes } from 'react-router-dom'
import { mockServer, renderApp, signedIn, signedOut } from '@/test-utils'
import { RequireAuth } from './RequireAuth'

afterEach(() => vi.unstubAllGlobals())

function Guarded() {
  return (
    <Routes>
      <Route path="/admin" element={<RequireAuth role="admin"><h1>Admin Panel</h1></RequireAuth>} />
      <Route path="/login" element={<h1>Login page</h1>} />
    </Routes>
  )
}

describe('RequireAuth', () => {
  it('says Authenticating while the session loads, then lets an admin in', async () => {
    mockServer({ 'GET /_api/auth/session': signedIn({ role: 'admin' }) })
    renderApp(<Guarded />, { route: '/admin' })
    expect(screen.getByText('Authenticating')).toBeInTheDocument()
    expect(await screen.findByRole('heading', { name: 'Admin Panel' })).toBeInTheDocument()
  })

  it('denies other roles with the role in the message', async () => {
    mockServer({ 'GET /_api/auth/session': signedIn({ role: 'user' }) })
    renderApp(<Guarded />, { route: '/admin' })
    expect(await screen.findByRole('heading', { name: 'Access Denied' })).toBeInTheDocument()
    expect(screen.getByText('Access denied. Your role (user) lacks required permissions.')).toBeInTheDocument()
  })

  it('sends visitors to the login page', async () => {
    mockServer({ 'GET /_api/auth/session': signedOut })
    renderApp(<Guarded />, { route: '/admin' })
    expect(await screen.findByRole('heading', { name: 'Login page' })).toBeInTheDocument()
  })
})
