import { useEffect, useMemo, useState } from 'react'
import { Skeleton } from '@/components/ui/Skeleton'
import { fetchPreview } from '../api'
import { PREVIEW_DEBOUNCE_MS, ZOOM_MAX, ZOOM_MIN, zoomBy, type ConfigRequest } from '../draft'
import { useDebouncedValue } from '../useDebouncedValue'

const PHONE_WIDTH = 360
const PHONE_HEIGHT = 720

/**
 * The live preview: the draft rendered by the server's renderer of the public page (so
 * the two cannot drift), 300 ms after the last change, in a sandboxed frame inside a
 * phone. A draft the server refuses keeps the last good preview on screen, and so does one
 * the editor holds back (`behind`: a field does not pass the check yet).
 */
export function PreviewPane({ request, behind = false }: { request: ConfigRequest; behind?: boolean }) {
  const body = useMemo(() => JSON.stringify(request), [request])
  const settled = useDebouncedValue(body, PREVIEW_DEBOUNCE_MS)
  const [html, setHtml] = useState<string | null>(null)
  const [stale, setStale] = useState(false)
  const [zoom, setZoom] = useState(100)

  useEffect(() => {
    let current = true
    fetchPreview(JSON.parse(settled) as ConfigRequest)
      .then((page) => {
        if (!current) return
        setHtml(page)
        setStale(false)
      })
      .catch(() => {
        if (current) setStale(true)
      })
    return () => {
      current = false
    }
  }, [settled])

  const scale = zoom / 100
  return (
    <section className="card rp-preview" aria-labelledby="rp-preview-title">
      <div className="rp-preview-head">
        <h2 id="rp-preview-title" className="card-title">Live Preview</h2>
        <div className="row rp-zoom" role="group" aria-label="Preview zoom">
          <button type="button" className="icon-btn" onClick={() => setZoom((z) => zoomBy(z, -1))} disabled={zoom <= ZOOM_MIN} aria-label="Zoom out">
            <span aria-hidden="true">−</span>
          </button>
          <output aria-live="polite" aria-label="Zoom level" data-testid="preview-zoom">{zoom}%</output>
          <button type="button" className="icon-btn" onClick={() => setZoom((z) => zoomBy(z, 1))} disabled={zoom >= ZOOM_MAX} aria-label="Zoom in">
            <span aria-hidden="true">+</span>
          </button>
        </div>
      </div>
      {(stale || behind) && <p className="hint" role="status">The preview shows your last valid changes.</p>}
      <div className="rp-phone-viewport" style={{ width: PHONE_WIDTH * scale + 24 * scale, height: PHONE_HEIGHT * scale + 24 * scale }}>
        <div className="rp-phone" style={{ width: PHONE_WIDTH + 24, height: PHONE_HEIGHT + 24, transform: `scale(${scale})` }}>
          {html === null ? (
            <div className="rp-phone-loading" role="status" aria-busy="true">
              <span className="sr-only">Loading preview</span>
              <Skeleton height="100%" />
            </div>
          ) : (
            <iframe sandbox="" srcDoc={html} title="RigPage preview" className="rp-phone-screen" />
          )}
        </div>
      </div>
    </section>
  )
}
