import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Toaster } from 'sonner'
import { mockServer, renderApp, signedIn } from '@/test-utils'
import { BrandAssets } from './BrandAssets'

/** An Image that loads (or fails) as soon as it gets a source. */
function fakeImage(loads: boolean) {
  return class {
    onload: (() => void) | null = null
    onerror: (() => void) | null = null
    decoding = 'auto'
    set src(_value: string) {
      setTimeout(() => (loads ? this.onload?.() : this.onerror?.()), 0)
    }
  }
}

const { createObjectURL, revokeObjectURL } = URL
let svgs: Blob[]
let canvases: HTMLCanvasElement[]
let downloads: { href: string; download: string }[]

beforeEach(() => {
  svgs = []
  canvases = []
  downloads = []
  mockServer({ 'GET /_api/auth/session': signedIn({ role: 'admin' }) })
  URL.createObjectURL = vi.fn((blob: Blob) => {
    if (blob.type.startsWith('image/svg')) svgs.push(blob)
    return `blob:${blob.type}`
  })
  URL.revokeObjectURL = vi.fn()
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(function (this: HTMLCanvasElement) {
    canvases.push(this)
    return { drawImage: vi.fn() } as unknown as CanvasRenderingContext2D
  })
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    downloads.push({ href: this.href, download: this.download })
  })
})

afterEach(() => {
  URL.createObjectURL = createObjectURL
  URL.revokeObjectURL = revokeObjectURL
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

const renderAssets = () => renderApp(<><BrandAssets /><Toaster /></>)

describe('BrandAssets', () => {
  it('draws the SVG on a canvas of the exact size and downloads the PNG', async () => {
    vi.stubGlobal('Image', fakeImage(true))
    vi.spyOn(HTMLCanvasElement.prototype, 'toBlob').mockImplementation((callback, type) => callback(new Blob(['png'], { type: type ?? 'image/png' })))
    renderAssets()
    await userEvent.click(screen.getByRole('button', { name: '"IQ" only (1200×800)' }))
    await waitFor(() => expect(downloads).toEqual([{ href: 'blob:image/png', download: 'setupiq-iq-1200x800.png' }]))
    expect(canvases[0]).toMatchObject({ width: 1200, height: 800 })
    expect(await svgs[0]?.text()).toContain('viewBox="0 0 1200 800"')
    await userEvent.click(screen.getByRole('button', { name: 'Full logo (2048×2048)' }))
    await waitFor(() => expect(downloads.at(-1)?.download).toBe('setupiq-logo-2048.png'))
    expect(canvases.at(-1)).toMatchObject({ width: 2048, height: 2048 })
  })

  it("says 'Failed to generate logo' when the SVG does not load", async () => {
    vi.stubGlobal('Image', fakeImage(false))
    renderAssets()
    await userEvent.click(screen.getByRole('button', { name: 'Icon only (1024×1024)' }))
    expect(await screen.findByText('Failed to generate logo')).toBeInTheDocument()
    expect(downloads).toEqual([])
  })

  it("says 'Failed to generate image' when the canvas gives no PNG", async () => {
    vi.stubGlobal('Image', fakeImage(true))
    vi.spyOn(HTMLCanvasElement.prototype, 'toBlob').mockImplementation((callback) => callback(null))
    renderAssets()
    await userEvent.click(screen.getByRole('button', { name: 'Icon only (1024×1024)' }))
    expect(await screen.findByText('Failed to generate image')).toBeInTheDocument()
    expect(downloads).toEqual([])
  })
})
