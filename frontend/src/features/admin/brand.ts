/**
 * Rasterises the brand SVG in the browser: SVG -> Blob URL -> Image -> a canvas of the
 * exact size -> PNG blob -> download through an `<a download>`.
 */

/** Which step failed: the SVG did not load ('logo') or the canvas could not make a PNG ('image'). */
export class BrandRenderError extends Error {
  readonly step: 'logo' | 'image'

  constructor(step: 'logo' | 'image', message: string) {
    super(message)
    this.name = 'BrandRenderError'
    this.step = step
  }
}

function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image()
    image.decoding = 'async'
    image.onload = () => resolve(image)
    image.onerror = () => reject(new BrandRenderError('logo', 'The logo SVG could not be loaded.'))
    image.src = src
  })
}

export async function svgToPng(svg: string, width: number, height: number): Promise<Blob> {
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml;charset=utf-8' }))
  try {
    const image = await loadImage(url)
    const canvas = document.createElement('canvas')
    canvas.width = width
    canvas.height = height
    const context = canvas.getContext('2d')
    if (!context) throw new BrandRenderError('image', 'This browser cannot draw on a canvas.')
    context.drawImage(image, 0, 0, width, height)
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'))
    if (!blob) throw new BrandRenderError('image', 'The canvas could not be saved as PNG.')
    return blob
  } finally {
    URL.revokeObjectURL(url)
  }
}

export function downloadBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = filename
  link.rel = 'noopener'
  document.body.append(link)
  link.click()
  link.remove()
  // Revoked after the click has started the download.
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}
