/**
 * An advertisement placeholder (spec 000 §7: adSlot, adFormat 'auto', full-width
 * responsive). No third-party ad script is loaded; the slot keeps the layout honest.
 */
export function AdSlot({ slot, format = 'auto', fullWidthResponsive = true }: { slot: string; format?: string; fullWidthResponsive?: boolean }) {
  return (
    <aside className="ad-slot" aria-label="Advertisement" data-ad-slot={slot} data-ad-format={format} data-full-width-responsive={fullWidthResponsive}>
      Advertisement
    </aside>
  )
}
