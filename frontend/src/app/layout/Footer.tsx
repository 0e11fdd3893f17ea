import { Link } from 'react-router-dom'
import { useCookieConsent } from '@/features/cookies/CookieConsent'
import { AdSlot } from './AdSlot'

/** The site's footer; its copyright year is the current one, never a year written in. */
export function Footer() {
  const { openPreferences } = useCookieConsent()
  return (
    <footer className="footer below-fold">
      <div className="container">
        <AdSlot slot="footer-banner" />
        <div className="footer-grid">
          <div>
            <Link to="/" className="logo"><span className="logo-mark" aria-hidden="true">IQ</span>SetupIQ</Link>
            <p className="muted" style={{ marginTop: '0.8rem' }}>AI-powered gaming setup analysis</p>
          </div>
          <div>
            <h2>Product</h2>
            <ul>
              <li><Link to="/about">About</Link></li>
              <li><Link to="/tips">Tips</Link></li>
              <li><Link to="/how-we-score">How We Score</Link></li>
              <li><Link to="/#features">Features</Link></li>
            </ul>
          </div>
          <div>
            <h2>Support</h2>
            <ul>
              <li><Link to="/contact">Contact</Link></li>
              <li><Link to="/#help">Help Center</Link></li>
              <li><Link to="/community">Community</Link></li>
            </ul>
          </div>
          <div>
            <h2>Legal</h2>
            <ul>
              <li><Link to="/privacy-policy">Privacy Policy</Link></li>
              <li><Link to="/terms">Terms</Link></li>
              <li><Link to="/impressum">Impressum</Link></li>
              <li><Link to="/affiliate-disclaimer">Affiliate Disclaimer</Link></li>
              <li><button type="button" className="link-button" onClick={openPreferences}>Cookie Settings</button></li>
            </ul>
          </div>
        </div>
        <p className="copyright">© {new Date().getFullYear()} SetupIQ. All rights reserved.</p>
      </div>
    </footer>
  )
}
