import { Link } from 'react-router-dom'
import type { Editor } from '../draft'

/** The editor's title, and the member's best score (or an invitation to analyse a first setup). */
export function EditorHeader({ bestScore }: Pick<Editor, 'bestScore'>) {
  return (
    <>
      <header className="rp-head">
        <span className="badge eyebrow">RigPage</span>
        <h1>Create Your Link in Bio</h1>
        <p className="lead muted">One page for your setup, your socials and your links. Share it everywhere.</p>
      </header>

      <section className="card rp-hero" aria-label="Your best score">
        {bestScore != null ? (
          <>
            <span className="rp-hero-label">Your Best Score</span>
            <strong className="rp-hero-score" data-testid="best-score">{bestScore.toFixed(1)}</strong>
          </>
        ) : (
          <p className="rp-hero-empty">
            No analyses yet? Analyze your first setup to get started! <Link to="/" className="btn btn-primary btn-sm">Analyze a Setup</Link>
          </p>
        )}
      </section>
    </>
  )
}
