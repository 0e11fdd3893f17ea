import type { Editor } from '../draft'
import { EditorCard } from './EditorCard'
import { SharePanel, StatsPanel } from './SharePanel'

/** The editor's "Share & Stats" card, once the page is saved with an address: its link, QR code and visits. */
export function ShareSection({ editor }: { editor: Pick<Editor, 'saved' | 'rigpageSlug' | 'publicUrl'> }) {
  if (!(editor.saved && editor.rigpageSlug && editor.publicUrl)) return null
  return (
    <EditorCard id="rp-share" title="Share & Stats">
      <SharePanel slug={editor.rigpageSlug} publicUrl={editor.publicUrl} />
      <StatsPanel />
    </EditorCard>
  )
}
