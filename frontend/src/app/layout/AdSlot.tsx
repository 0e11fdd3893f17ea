import { useEffect } from 'react'
import { useSite } from '@/api/resources'
import { useCookieConsent } from '@/features/cookies/CookieConsent'

declare global {
  interface Window {
    adsbygoogle?: unknown[]
  }
}

const SCRIPT_ID = 'setupiq-adsense'

/** Loads Google's ad script once per page, for the configured publisher. */
function loadAdScript(client: string) {
  if (document.getElementById(SCRIPT_ID)) return
  const script = document.createElement('script')
  script.id = SCRIPT_ID
  script.async = true
  script.crossOrigin = 'anonymous'
  script.src = `https://pagead2.googlesyndication.com/pagead/js/adsbygoogle.js?client=${encodeURIComponent(client)}`
  document.head.appendChild(script)
}

interface AdSlotProps {
  slot: string
  format?: string
  fullWidthResponsive?: boolean
}

/**
 * An ad (spec 000 §7: adSlot, adFormat 'auto', full-width responsive), shown only when the
 * deployment has an ad client (`SETUPIQ_ADSENSE_CLIENT`) and the visitor accepted cookies;
 * otherwise nothing at all, not an empty box.
 */
export function AdSlot(props: AdSlotProps) {
  const { data: site } = useSite()
  const { consent } = useCookieConsent()
  const client = site?.adsenseClient
  if (!client || consent !== 'accepted') return null
  return <AdUnit client={client} {...props} />
}

function AdUnit({ client, slot, format = 'auto', fullWidthResponsive = true }: AdSlotProps & { client: string }) {
  useEffect(() => {
    loadAdScript(client)
    ;(window.adsbygoogle = window.adsbygoogle ?? []).push({})
  }, [client, slot])
  return (
    <aside className="ad-slot" aria-label="Advertisement">
      <ins
        className="adsbygoogle"
        style={{ display: 'block' }}
        data-ad-client={client}
        data-ad-slot={slot}
        data-ad-format={format}
        data-full-width-responsive={String(fullWidthResponsive)}
      />
    </aside>
  )
}
