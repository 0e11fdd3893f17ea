import type { ReactNode } from 'react'

/** One titled card of the RigPage editor, named by its heading (`{id}-title`). */
export function EditorCard({ id, title, children }: { id: string; title: ReactNode; children: ReactNode }) {
  return (
    <section className="card stack" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="card-title">{title}</h2>
      {children}
    </section>
  )
}
