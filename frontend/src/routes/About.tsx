import { Link } from 'react-router-dom'
import { Brain, Gamepad2, ShieldCheck, Target } from 'lucide-react'
import { usePageTitle } from '@/lib/usePageTitle'

const PILLARS = [
  {
    id: 'mission',
    icon: Target,
    title: 'Our Mission',
    text: 'Every gamer deserves a setup that performs well, stays comfortable through long sessions and looks like their own. We give you honest, specific feedback and a clear path to the next upgrade, whatever your budget.',
  },
  {
    id: 'technology',
    icon: Brain,
    title: 'Our Technology',
    text: 'An AI vision model reviews your photo or description the way an experienced setup builder would. It scores six categories, lists the cables it can see and turns every weak spot into a concrete suggestion with product picks at three price points.',
  },
  {
    id: 'team',
    icon: Gamepad2,
    title: 'Who We Are',
    text: 'A small team of gamers, developers and desk-setup enthusiasts. We have spent years tuning our own battlestations and built SetupIQ to make that know-how available to everyone.',
  },
] as const

export default function About() {
  usePageTitle('About')
  return (
    <div className="container">
      <header className="hero">
        <span className="badge eyebrow">About</span>
        <h1>
          About <span className="gradient-text">SetupIQ</span>
        </h1>
        <p className="lead">
          SetupIQ rates gaming and desk setups with AI: upload a photo or describe your desk and get a score out of 10,
          category feedback and upgrade ideas in seconds.
        </p>
      </header>

      <div className="grid grid-3">
        {PILLARS.map((pillar) => (
          <section key={pillar.id} className="card" aria-labelledby={`about-${pillar.id}`}>
            <div className="feature-icon" aria-hidden="true"><pillar.icon aria-hidden="true" /></div>
            <h2 id={`about-${pillar.id}`} className="card-title">{pillar.title}</h2>
            <p className="muted">{pillar.text}</p>
          </section>
        ))}
      </div>

      <section className="section page-narrow" aria-labelledby="about-trust">
        <div className="card trust-card">
          <div className="feature-icon" aria-hidden="true"><ShieldCheck aria-hidden="true" /></div>
          <div>
            <h2 id="about-trust" className="card-title">Your Trust Matters</h2>
            <p className="muted">
              The images and descriptions you upload are processed securely and only to create your analysis. They are
              not stored long-term and are not shared. Our <Link to="/privacy-policy">Privacy Policy</Link> explains the
              details, and our <Link to="/affiliate-disclaimer">Affiliate Disclaimer</Link> explains how product links
              keep the service running.
            </p>
          </div>
        </div>
      </section>

      <div className="row cta-row">
        <Link to="/" className="btn btn-primary">Rate My Setup</Link>
        <Link to="/contact" className="btn btn-secondary">Contact Us</Link>
      </div>
    </div>
  )
}
