import { useId, useState } from 'react'
import { toast } from '@/lib/toast'
import { BrandRenderError, downloadBlob, svgToPng } from '../brand'
import { BRAND_ASSETS, brandSize, brandSvg, type BrandVariant } from '../logic'

/** 'Brand Assets': the logo as PNGs in three sizes, drawn from one SVG source. */
export function BrandAssets() {
  const id = useId()
  const [pending, setPending] = useState<BrandVariant | null>(null)

  const generate = async (variant: BrandVariant) => {
    const { width, height, filename } = brandSize(variant)
    setPending(variant)
    try {
      downloadBlob(await svgToPng(brandSvg(variant), width, height), filename)
    } catch (error) {
      const logo = error instanceof BrandRenderError && error.step === 'logo'
      toast.error(logo ? 'Failed to generate logo' : 'Failed to generate image', { description: error instanceof Error ? error.message : undefined })
    } finally {
      setPending(null)
    }
  }

  return (
    <section className="card stack" aria-labelledby={id}>
      <h2 id={id} className="admin-h2">Brand Assets</h2>
      <p className="muted">Download the SetupIQ logo as PNG.</p>
      <div className="row">
        {BRAND_ASSETS.map((asset) => (
          <button key={asset.variant} type="button" className="btn btn-secondary" disabled={pending !== null} onClick={() => void generate(asset.variant)}>
            {pending === asset.variant ? 'Generating...' : `${asset.label} (${asset.width}×${asset.height})`}
          </button>
        ))}
      </div>
    </section>
  )
}
