import { api, ApiError, messageOf, SERVICE_UNAVAILABLE, unwrap } from './client'

afterEach(() => vi.unstubAllGlobals())

function answer(body: string, status: number, contentType = 'application/json') {
  vi.stubGlobal('fetch', vi.fn(async () => new Response(body, { status, headers: { 'content-type': contentType } })))
}

async function packsError(): Promise<ApiError> {
  try {
    unwrap(await api.GET('/_api/credits/packs'), 'Could not load the credit packs.')
  } catch (error) {
    if (error instanceof ApiError) return error
    throw error
  }
  throw new Error('expected a failure')
}

describe('the API client', () => {
  it("shows the server's own message as it is", async () => {
    answer(JSON.stringify({ error: 'The free trial limit for your network has been reached today.', code: 'trial_used' }), 402)
    const error = await packsError()
    expect(error.message).toBe('The free trial limit for your network has been reached today.')
    expect(error.code).toBe('trial_used')
    expect(error.status).toBe(402)
  })

  it('says the service is briefly unavailable for a 502 error page, never quoting a parser', async () => {
    answer('<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>', 502, 'text/html')
    const error = await packsError()
    expect(error.message).toBe(SERVICE_UNAVAILABLE)
    expect(error.message).not.toMatch(/JSON|token/i)
    expect(error.status).toBe(502)
    expect(error.code).toBe('unavailable')
  })

  it('says so too for an empty 503 and for any HTML error page', async () => {
    answer('', 503, 'text/plain')
    expect((await packsError()).message).toBe(SERVICE_UNAVAILABLE)
    answer('<!doctype html><p>Not Found</p>', 404, 'text/html')
    const notFound = await packsError()
    expect(notFound.message).toBe(SERVICE_UNAVAILABLE)
    expect(notFound.status).toBe(404)
  })

  it('says so for a success answer that is not JSON (an HTML page where data was expected)', async () => {
    answer('<!doctype html><html><body>Maintenance</body></html>', 200, 'text/html')
    const error = await packsError()
    expect(error.message).toBe(SERVICE_UNAVAILABLE)
  })

  it('says so when the request gets no answer at all', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => {
      throw new TypeError('Failed to fetch')
    }))
    await expect(api.GET('/_api/credits/packs')).rejects.toMatchObject({ message: SERVICE_UNAVAILABLE, status: 0 })
  })

  it('lets a cancelled request stay cancelled', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => {
      throw new DOMException('The operation was aborted.', 'AbortError')
    }))
    await expect(api.GET('/_api/credits/packs')).rejects.toMatchObject({ name: 'AbortError' })
  })

  it('uses the fallback for a JSON error without a message', async () => {
    answer(JSON.stringify({ detail: 'nope' }), 400)
    expect((await packsError()).message).toBe('Could not load the credit packs.')
  })

  it('reads JSON data even when the content type says otherwise', async () => {
    answer(JSON.stringify({ packs: [] }), 200, 'text/plain')
    expect(unwrap(await api.GET('/_api/credits/packs'), 'x')).toEqual({ packs: [] })
  })

  it('gives any error a message', () => {
    expect(messageOf(new ApiError(500, 'Internal error'), 'fallback')).toBe('Internal error')
    expect(messageOf('boom', 'fallback')).toBe('fallback')
  })
})
