import { RigpageEditorPage } from '@/features/rigpage/components/RigpageEditor'
import { usePageTitle } from '@/lib/usePageTitle'

/** The RigPage editor (spec §2 "/rigpage-config"). The public page /rig/{slug} is the server's. */
export default function RigpageConfig() {
  usePageTitle('RigPage Editor')
  return <RigpageEditorPage />
}
