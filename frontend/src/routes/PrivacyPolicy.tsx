import { Link } from 'react-router-dom'
import { MissingDetails, policyDate, useLegal } from '@/components/ui/LegalDetails'
import { usePageTitle } from '@/lib/usePageTitle'

export default function PrivacyPolicy() {
  usePageTitle('Privacy Policy')
  const legal = useLegal()
  return (
    <article className="container page-narrow prose legal">
      <header className="legal-header">
        <h1>Privacy Policy</h1>
        {legal?.policyDate && <p className="legal-meta">Last updated: {policyDate(legal.policyDate)}</p>}
        <MissingDetails legal={legal} needed={[['the date of this policy', Boolean(legal?.policyDate)], ['a contact e-mail address', Boolean(legal?.contactEmail)]]} />
      </header>

      <section aria-labelledby="privacy-intro">
        <h2 id="privacy-intro">1. Introduction</h2>
        <p>
          This Privacy Policy explains what personal data SetupIQ collects, why we collect it, who processes it on our
          behalf and which rights you have under the EU General Data Protection Regulation (GDPR).
        </p>
      </section>

      <section aria-labelledby="privacy-collect">
        <h2 id="privacy-collect">2. Data We Collect</h2>
        <ul>
          <li>
            <strong>Account information:</strong> your e-mail address, display name, username, password (stored only
            as a secure hash) and, if you add one, your profile picture.
          </li>
          <li>
            <strong>User content:</strong> the setup images or text descriptions you submit for analysis, the results,
            and anything you choose to publish to the community or your RigPage.
          </li>
          <li>
            <strong>Payment information:</strong> card payments are handled by our card payment provider. We never see or
            store your full card details; we only receive confirmation of the payment and the credits purchased.
          </li>
          <li>
            <strong>Cookies:</strong> essential cookies keep you signed in and remember your cookie choice. Optional
            analytics cookies are used only if you accept them, and you can change your choice at any time under Cookie
            Settings in the footer.
          </li>
          <li>
            <strong>Messages:</strong> the name, e-mail address and message you send us through the{' '}
            <Link to="/contact">contact form</Link>.
          </li>
        </ul>
      </section>

      <section aria-labelledby="privacy-use">
        <h2 id="privacy-use">3. How We Use Your Data</h2>
        <ul>
          <li>to create your setup analyses, scores and upgrade suggestions;</li>
          <li>to run your account, credit balance, setup history, community posts and RigPage;</li>
          <li>to process purchases and prevent fraud and abuse;</li>
          <li>to answer your messages and send essential e-mails such as password resets;</li>
          <li>to measure affiliate link clicks and improve the Service.</li>
        </ul>
        <p>We do not sell your personal data.</p>
      </section>

      <section aria-labelledby="privacy-processors">
        <h2 id="privacy-processors">4. Third-Party Processors</h2>
        <p>We share data only with service providers that process it on our behalf and under our instructions:</p>
        <ul>
          <li><strong>An AI provider</strong>, which analyzes the images and descriptions you submit;</li>
          <li><strong>A card payment provider</strong>, which processes credit purchases;</li>
          <li><strong>A transactional e-mail provider</strong>, which delivers account and support e-mails.</li>
        </ul>
      </section>

      <section aria-labelledby="privacy-rights">
        <h2 id="privacy-rights">5. Your Rights Under the GDPR</h2>
        <p>You have the right to:</p>
        <ul>
          <li>access the personal data we hold about you;</li>
          <li>have inaccurate data corrected;</li>
          <li>have your data erased (you can also delete your account yourself at any time);</li>
          <li>restrict or object to processing;</li>
          <li>receive your data in a portable format;</li>
          <li>withdraw consent at any time;</li>
          <li>lodge a complaint with a data protection supervisory authority.</li>
        </ul>
        <p>We respond to every request within one month.</p>
      </section>

      <section aria-labelledby="privacy-security">
        <h2 id="privacy-security">6. Data Security</h2>
        <p>
          All data is transferred over encrypted connections. Passwords are stored only as secure hashes, and access to
          personal data is limited to what is needed to run the Service.
        </p>
      </section>

      <section aria-labelledby="privacy-contact">
        <h2 id="privacy-contact">7. Contact</h2>
        <p>
          For privacy questions or to exercise your rights,{' '}
          {legal?.contactEmail ? <>write to <a href={`mailto:${legal.contactEmail}`}>{legal.contactEmail}</a> or use</> : 'use'} our{' '}
          <Link to="/contact">contact form</Link>.
        </p>
      </section>
    </article>
  )
}
