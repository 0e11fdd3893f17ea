import { screen } from '@testing-library/react'
import { Route, Routes } from 'react-router-dom'
import { RequireAuth } from '@/features/auth/components/RequireAuth'
import { mockServer, renderApp, signedIn, signedOut } from '@/test-utils'
import Admin from './Admin'

afterEach(() => vi.unstubAllGlobals())

/** The /admin route as the router mounts it. */
function AdminRoute() {
  return (
    <Routes>
      <Route path="/admin" element={<RequireAuth role="admin"><Admin /></RequireAuth>} />
      <Route path="/login" element={<h1>Login page</h1>} />
    </Routes>
  )
}

describe('/admin', () => {
  it('denies a signed-in member with the role in the message and reads no admin data', async () => {
    const { calls } = mockServer({ 'GET /_api/auth/session': signedIn({ role: 'user' }) })
    renderApp(<AdminRoute />, { route: '/admin' })
    expect(screen.getByText('Authenticating')).toBeInTheDocument()
    expect(await screen.findByRole('heading', { name: 'Access Denied' })).toBeInTheDocument()
    expect(screen.getByText('Access denied. Your role (user) lacks required permissions.')).toBeInTheDocument()
    expect(screen.queryByRole('heading', { name: 'Admin Panel' })).not.toBeInTheDocument()
    expect(calls.filter((c) => c.path !== '/_api/auth/session')).toEqual([])
  })

  it('sends visitors to the login page', async () => {
    mockServer({ 'GET /_api/auth/session': signedOut })
    renderApp(<AdminRoute />, { route: '/admin' })
    expect(await screen.findByRole('heading', { name: 'Login page' })).toBeInTheDocument()
  })

  it('shows the panel to an admin', async () => {
    mockServer({ 'GET /_api/auth/session': signedIn({ role: 'admin' }) })
    renderApp(<AdminRoute />, { route: '/admin' })
    expect(await screen.findByRole('heading', { level: 1, name: 'Admin Panel' })).toBeInTheDocument()
  })
})
