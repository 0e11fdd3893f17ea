import { act, renderHook, screen, waitFor } from '@testing-library/react'
import type { ReactNode } from 'react'
import { Toaster, toast } from 'sonner'
import { SWRConfig } from 'swr'
import { AuthProvider } from '@/lib/auth'
import { mockServer, signedIn } from '@/test-utils'
import type { ConfigRequest } from './draft'
import { sampleEditor } from './testFixtures'
import { useRigpageEditor } from './useRigpageEditor'

afterEach(() => {
  toast.dismiss()
  vi.unstubAllGlobals()
})

/** The hook's surroundings in the app: a fresh SWR cache, the session, and the toasts it shows. */
function wrapper({ children }: { children: ReactNode }) {
  return (
    <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <AuthProvider>
        {children}
        <Toaster />
      </AuthProvider>
    </SWRConfig>
  )
}

const saves = (calls: { method: string; path: string; body: unknown }[]) =>
  calls.filter((c) => c.method === 'POST' && c.path === '/_api/rigpage/config').map((c) => c.body as ConfigRequest)

/** The editor's hook over a live page saved before, once the session (balance 5) has loaded. */
async function renderEditorHook() {
  const rendered = renderHook(() => useRigpageEditor(sampleEditor({ saved: true, rigpageEnabled: true, everPublished: true })), { wrapper })
  await waitFor(() => expect(rendered.result.current.balance).toBe(5))
  return rendered
}

describe('useRigpageEditor', () => {
  it('saves the draft trimmed, says so, and then holds what the server saved', async () => {
    const { calls } = mockServer({
      'GET /_api/auth/session': signedIn({ credits: 5 }),
      'POST /_api/rigpage/config': (body) => ({
        status: 200,
        body: { ...sampleEditor({ saved: true, everPublished: true, credits: 5 }), ...(body as ConfigRequest), rigpageTagline: 'Server says', charged: { credits: 0, publish: false, linkBatches: 0 } },
      }),
    })
    const { result } = await renderEditorHook()

    act(() => result.current.set('rigpageTagline', '  Streamer  '))
    await act(() => result.current.saveChanges())

    expect(saves(calls)).toHaveLength(1)
    expect(saves(calls)[0]).toMatchObject({ rigpageTagline: 'Streamer', rigpageSlug: 'Pixel_Pete', rigpageEnabled: true })
    expect(await screen.findByText('Changes saved!')).toBeInTheDocument()
    expect(result.current.draft.rigpageTagline).toBe('Server says')
    expect(result.current.busy('save')).toBe(false)
  })

  it('refuses a too-short page URL on its field and in the toast, without sending anything', async () => {
    const { calls } = mockServer({ 'GET /_api/auth/session': signedIn({ credits: 5 }) })
    const { result } = await renderEditorHook()

    act(() => result.current.set('rigpageSlug', 'ab'))
    await act(() => result.current.saveChanges())

    expect(await screen.findByText('Failed to save: Page URL: URL must be at least 3 characters.')).toBeInTheDocument()
    expect(result.current.errors.rigpageSlug?.message).toBe('URL must be at least 3 characters.')
    expect(result.current.behind).toBe(true)
    expect(result.current.previewed.rigpageSlug).toBe('Pixel_Pete')
    expect(saves(calls)).toHaveLength(0)
  })
})
