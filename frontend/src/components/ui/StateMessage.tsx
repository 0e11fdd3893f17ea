import type { ReactNode } from 'react'
import type { LucideIcon } from 'lucide-react'

/** A page that is one outcome (done, invalid link, missing token): an icon, a title, a line and what to do next. */
export function StateMessage({ icon: Icon, title, text, children }: { icon: LucideIcon; title: string; text: string; children: ReactNode }) {
  return (
    <div className="container state page-narrow">
      <div className="state-icon" aria-hidden="true"><Icon aria-hidden="true" /></div>
      <h1>{title}</h1>
      <p className="muted">{text}</p>
      {children}
    </div>
  )
}
