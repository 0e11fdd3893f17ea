import { Link } from 'react-router-dom'
import { useSite } from '@/api/resources'
import { usePageTitle } from '@/lib/usePageTitle'

export default function AffiliateDisclaimer() {
  usePageTitle('Affiliate Disclaimer')
  // The server's support address (`SETUPIQ_SUPPORT_EMAIL`), as on the Contact page.
  const supportEmail = useSite().data?.supportEmail
  const today = new Date().toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' })
  return (
    <article className="container page-narrow prose legal">
      <header className="legal-header">
        <h1>Affiliate Disclaimer</h1>
        <p className="legal-meta">Last updated: {today}</p>
      </header>

      <section aria-labelledby="affiliate-transparency">
        <h2 id="affiliate-transparency">1. Transparency</h2>
        <p>
          SetupIQ is free to try, and part of what keeps it running comes from affiliate partnerships. We want you to
          know exactly how that works, so this page explains it in plain language.
        </p>
      </section>

      <section aria-labelledby="affiliate-links">
        <h2 id="affiliate-links">2. Affiliate Links</h2>
        <p>
          Some product links in your analysis results, upgrade suggestions and gear lists are affiliate links. If you
          click one and buy something, the retailer may pay us a small commission. We count clicks on these links to
          understand which recommendations are useful.
        </p>
      </section>

      <section aria-labelledby="affiliate-ftc">
        <h2 id="affiliate-ftc">3. FTC Compliance</h2>
        <p>
          In line with the U.S. Federal Trade Commission&apos;s guidelines on endorsements (16 CFR Part 255) and similar
          rules elsewhere, we disclose our affiliate relationships clearly and close to the links they concern. As a
          participant in affiliate programs, we earn from qualifying purchases.
        </p>
      </section>

      <section aria-labelledby="affiliate-cost">
        <h2 id="affiliate-cost">4. No Extra Cost to You</h2>
        <p>
          Buying through an affiliate link never costs you more. The price is the same as going to the retailer
          directly; the commission is paid by the retailer.
        </p>
      </section>

      <section aria-labelledby="affiliate-independence">
        <h2 id="affiliate-independence">5. Independence of Recommendations</h2>
        <p>
          Your scores and suggestions come from the analysis of your setup, not from commissions. Products are chosen
          because they fix the weak spots we found, and we offer budget, balanced and premium options so you can decide
          what fits. No brand can pay for a better rating.
        </p>
      </section>

      <section aria-labelledby="affiliate-questions">
        <h2 id="affiliate-questions">6. Questions</h2>
        <p>
          If you have any questions about our affiliate relationships,{' '}
          {supportEmail && (
            <>
              e-mail us at <a href={`mailto:${supportEmail}`}>{supportEmail}</a> or{' '}
            </>
          )}
          use our <Link to="/contact">contact form</Link>.
        </p>
      </section>
    </article>
  )
}
