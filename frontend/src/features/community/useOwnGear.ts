import { useEffect, useState } from 'react'
import { fetchOwnGear, useMyAnalyses, type CommunitySetup } from './api'
import { rowsOf, suggestGear, type GearRow } from './gear'

/**
 * The gear rows an owner edits for their post: the stored list (with its links and whether
 * the link check found them dead) once it has loaded, or, when the post has none, what its
 * analysis saw. `touched` says whether there is anything to send: an untouched offer from the
 * analysis changes nothing, and a list not loaded yet is never wiped.
 */
export function useOwnGear(setup: CommunitySetup) {
  const [gearRows, setGearRows] = useState<GearRow[] | null>(null)
  const { data: analyses } = useMyAnalyses(true)
  const analysis = analyses?.analyses.find((a) => a.id === setup.analysis?.id)
  useEffect(() => {
    let live = true
    fetchOwnGear(setup.id)
      .then(({ items }) => {
        if (live && items.length > 0) setGearRows((rows) => rows ?? rowsOf(items))
      })
      .catch(() => undefined)
    return () => {
      live = false
    }
  }, [setup.id])
  const gear = gearRows ?? (setup.gear.length === 0 && analysis ? suggestGear(analysis) : [])
  return { gear, touched: gearRows !== null, setGearRows }
}
