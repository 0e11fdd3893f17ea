import { useId } from 'react'
import { Link } from 'react-router-dom'
import { ArrowRight } from 'lucide-react'
import { GUIDES } from '@/features/guides/guides'
import { usePageTitle } from '@/lib/usePageTitle'

const GALLERY = [
  {
    title: 'Minimalist Monochrome',
    text: 'Black, white and nothing that does not need to be there.',
    gradient: 'linear-gradient(135deg, #f4f4f5 0%, #71717a 45%, #18181b 100%)',
  },
  {
    title: 'Cyberpunk Neon',
    text: 'Hot pink and electric cyan glowing through the dark.',
    gradient: 'linear-gradient(135deg, #ec4899 0%, #7c3aed 50%, #06b6d4 100%)',
  },
  {
    title: 'Nature-infused Battlestation',
    text: 'Plants, warm wood and soft daylight around the rig.',
    gradient: 'linear-gradient(135deg, #166534 0%, #65a30d 50%, #a16207 100%)',
  },
  {
    title: 'RGB Dreamscape',
    text: 'Every colour of the rainbow, perfectly in sync.',
    gradient: 'linear-gradient(135deg, #ef4444 0%, #f59e0b 25%, #22c55e 50%, #3b82f6 75%, #a855f7 100%)',
  },
  {
    title: 'Cozy & Compact',
    text: 'A small corner that packs everything you need.',
    gradient: 'linear-gradient(135deg, #fcd34d 0%, #fb923c 50%, #9a3412 100%)',
  },
  {
    title: 'Ultimate Streamer Studio',
    text: 'Key light, mic arm and a camera ready to go live.',
    gradient: 'linear-gradient(135deg, #1e3a8a 0%, #6d28d9 55%, #db2777 100%)',
  },
] as const

export default function Tips() {
  usePageTitle('Setup Tips')
  const id = useId()
  return (
    <div className="container">
      <header className="hero">
        <span className="badge eyebrow">Tips &amp; Guides</span>
        <h1>
          The Ultimate <span className="gradient-text">Setup Guide</span>
        </h1>
        <p className="lead">
          Practical advice on budget, performance, comfort and style, plus a gallery of setups to spark your next build.
        </p>
      </header>

      <section className="section" aria-labelledby={`${id}-guides`}>
        <h2 id={`${id}-guides`} className="section-title">Top Tips &amp; Guides</h2>
        <ul className="grid grid-2 plain-list">
          {GUIDES.map((guide, index) => (
            <li key={guide.title} className="card card-hover guide-card">
              <div className="row">
                <span className="feature-icon" aria-hidden="true"><guide.icon aria-hidden="true" /></span>
                <span className="badge">{guide.category}</span>
              </div>
              <h3 id={`${id}-guide-${index}`}>{guide.title}</h3>
              <p className="muted">{guide.text}</p>
              <Link to={`/tips/${guide.slug}`} className="text-link" aria-describedby={`${id}-guide-${index}`}>
                Read Guide <ArrowRight className="inline-icon" aria-hidden="true" />
              </Link>
            </li>
          ))}
        </ul>
      </section>

      <section className="section" aria-labelledby={`${id}-gallery`}>
        <h2 id={`${id}-gallery`} className="section-title">Setup Inspiration Gallery</h2>
        <ul className="grid grid-3 plain-list">
          {GALLERY.map((tile) => (
            <li key={tile.title} className="gallery-tile" style={{ background: tile.gradient }}>
              <div className="gallery-caption">
                <h3>{tile.title}</h3>
                <p>{tile.text}</p>
              </div>
            </li>
          ))}
        </ul>
      </section>
    </div>
  )
}
