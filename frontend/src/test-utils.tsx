import { render } from '@testing-library/react'
import type { ReactElement } from 'react'
import { MemoryRouter, type InitialEntry } from 'react-router-dom'
import { SWRConfig } from 'swr'
import { AuthProvider } from '@/lib/auth'

type Reply = { status: number; body: unknown }

/**
 * Replaces `fetch` with canned server replies keyed by "METHOD /path"; records requests
 * (with their query string in `search`, also given to a reply function). A reply may be a
 * promise, to hold a request open.
 * Components under test talk to it through the real typed API client.
 */
export function mockServer(replies: Record<string, Reply | ((body: unknown, request: { search: string }) => Reply | Promise<Reply>)>) {
  const calls: { method: string; path: string; search?: string | undefined; body: unknown }[] = []
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(new URL(String(input), 'http://localhost'), init)
    const url = new URL(request.url, 'http://localhost')
    const text = request.method === 'GET' ? '' : await request.text()
    const body = text ? JSON.parse(text) : undefined
    calls.push({ method: request.method, path: url.pathname, search: url.search || undefined, body })
    const entry = replies[`${request.method} ${url.pathname}`]
    const reply = typeof entry === 'function' ? await entry(body, { search: url.search }) : entry ?? { status: 404, body: { error: 'Not found.', code: 'not_found' } }
    return new Response(JSON.stringify(reply.body), { status: reply.status, headers: { 'content-type': 'application/json' } })
  })
  vi.stubGlobal('fetch', fetchMock)
  vi.stubGlobal('XMLHttpRequest', fakeXhrOver(fetchMock))
  return { calls }
}

type ProgressHandler = ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null

/** An XMLHttpRequest that answers from the same canned replies (the analysis upload uses XHR). */
function fakeXhrOver(fetchMock: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>) {
  return class FakeXhr {
    status = 0
    responseText = ''
    withCredentials = false
    upload: { onprogress: ProgressHandler; onload: (() => void) | null } = { onprogress: null, onload: null }
    onload: (() => void) | null = null
    onerror: (() => void) | null = null
    private method = 'GET'
    private url = ''
    private headers: Record<string, string> = {}

    open(method: string, url: string) {
      this.method = method
      this.url = url
    }

    setRequestHeader(name: string, value: string) {
      this.headers[name] = value
    }

    send(body?: string) {
      const total = body?.length ?? 0
      void (async () => {
        this.upload.onprogress?.({ lengthComputable: true, loaded: total, total })
        this.upload.onload?.()
        try {
          const response = await fetchMock(new Request(new URL(this.url, 'http://localhost'), { method: this.method, headers: this.headers, body }))
          this.status = response.status
          this.responseText = await response.text()
          this.onload?.()
        } catch {
          this.onerror?.()
        }
      })()
    }
  }
}

/** Renders inside a router, a fresh SWR cache and the auth provider. */
export function renderApp(ui: ReactElement, { route = '/' as InitialEntry } = {}) {
  return render(
    <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <MemoryRouter initialEntries={[route]}>
        <AuthProvider>{ui}</AuthProvider>
      </MemoryRouter>
    </SWRConfig>,
  )
}

export const signedOut: Reply = { status: 200, body: { user: null, error: 'Not authenticated' } }

export function signedIn(overrides: Record<string, unknown> = {}): Reply {
  return {
    status: 200,
    body: {
      user: {
        id: 1,
        email: 'pete@example.com',
        username: 'Pixel_Pete',
        displayName: 'Pixel Pete',
        profilePicture: null,
        isPro: false,
        credits: 3,
        role: 'user',
        createdAt: '2026-03-14T09:26:53Z',
        emailVerified: true,
        ...overrides,
      },
    },
  }
}

/** The operator's details as an unconfigured deployment answers them: all unset. */
export const unsetLegal = { operator: null, address: [], contactEmail: null, phone: null, representative: null, register: null, vatId: null, policyDate: null }

/** `GET /_api/site`'s answer, unconfigured unless told otherwise. */
export function siteReply({ legal = unsetLegal as Record<string, unknown>, adsenseClient = null as string | null, analyzer = 'local', supportEmail = 'support@setupiq.local', businessEmail = 'business@setupiq.local' } = {}): Reply {
  return { status: 200, body: { legal, adsenseClient, analyzer, supportEmail, businessEmail } }
}
