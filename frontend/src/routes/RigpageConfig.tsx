import { RigpageEditorPage } from '@/features/rigpage/components/RigpageEditor'

/** The RigPage editor (spec §2 "/rigpage-config"). The public page /rig/{slug} is the server's. */
export default function RigpageConfig() {
  return <RigpageEditorPage />
}
