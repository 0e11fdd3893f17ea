/** Size that fits within `max` x `max` keeping proportions; never enlarges. */
export function fitWithin(width: number, height: number, maxWidth: number, maxHeight: number) {
  const scale = Math.min(1, maxWidth / width, maxHeight / height)
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) }
}

function loadImage(file: File): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const url = URL.createObjectURL(file)
    const image = new Image()
    image.onload = () => {
      URL.revokeObjectURL(url)
      resolve(image)
    }
    image.onerror = () => {
      URL.revokeObjectURL(url)
      reject(new Error('Failed to load image'))
    }
    image.src = url
  })
}

/**
 * Reads an image file, scales it to fit `maxWidth` x `maxHeight` and returns a JPEG data
 * URL at `quality` (profile pictures: 800 px, 0.85; analysis photos: 1920x1080, 0.9).
 */
export async function downscaleToJpegDataUrl(file: File, maxWidth: number, maxHeight: number, quality: number): Promise<string> {
  const image = await loadImage(file)
  const size = fitWithin(image.naturalWidth, image.naturalHeight, maxWidth, maxHeight)
  const canvas = document.createElement('canvas')
  canvas.width = size.width
  canvas.height = size.height
  const context = canvas.getContext('2d')
  if (!context) throw new Error('Failed to get canvas context')
  context.drawImage(image, 0, 0, size.width, size.height)
  const dataUrl = canvas.toDataURL('image/jpeg', quality)
  if (!dataUrl.startsWith('data:image/jpeg')) throw new Error('Failed to create blob from canvas')
  return dataUrl
}
