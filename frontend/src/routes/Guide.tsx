import { Link, useParams } from 'react-router-dom'
import { ArrowLeft } from 'lucide-react'
import { findGuide } from '@/features/guides/guides'
import { usePageTitle } from '@/lib/usePageTitle'
import NotFound from './NotFound'

/** One guide of /tips at /tips/{slug}; an unknown slug is the Not Found page. */
export default function Guide() {
  const guide = findGuide(useParams().slug)
  usePageTitle(guide?.title ?? 'Not Found')
  if (!guide) return <NotFound />
  return (
    <article className="container guide">
      <Link to="/tips" className="text-link guide-back"><ArrowLeft className="inline-icon" aria-hidden="true" /> All guides</Link>
      <header className="guide-head">
        <span className="badge">{guide.category}</span>
        <h1>{guide.title}</h1>
        <p className="lead">{guide.text}</p>
        <p className="hint">Helps with: {guide.rates.join(', ')}</p>
      </header>
      {guide.sections.map((section) => (
        <section key={section.heading} className="guide-section">
          <h2>{section.heading}</h2>
          {section.paragraphs.map((text) => <p key={text}>{text}</p>)}
          {section.checklist && (
            <ul className="check-list">
              {section.checklist.map((item) => <li key={item}>{item}</li>)}
            </ul>
          )}
        </section>
      ))}
      <div className="card guide-cta">
        <p>See where your setup stands after the changes.</p>
        <Link to="/" className="btn btn-primary">Rate My Setup</Link>
      </div>
    </article>
  )
}
