import { Link } from 'react-router-dom'
import { MissingDetails, policyDate, useLegal } from '@/components/ui/LegalDetails'
import { usePageTitle } from '@/lib/usePageTitle'

export default function Terms() {
  usePageTitle('Terms of Service')
  const legal = useLegal()
  return (
    <article className="container page-narrow prose legal">
      <header className="legal-header">
        <h1>Terms of Service</h1>
        {legal?.policyDate && <p className="legal-meta">Last updated: {policyDate(legal.policyDate)}</p>}
        <MissingDetails
          legal={legal}
          needed={[['the date of these terms', Boolean(legal?.policyDate)], ['its name', Boolean(legal?.operator)], ['a contact e-mail address', Boolean(legal?.contactEmail)]]}
        />
      </header>

      <section aria-labelledby="terms-1">
        <h2 id="terms-1">1. Acceptance of Terms</h2>
        <p>
          By accessing or using SetupIQ (the &quot;Service&quot;), operated by {legal?.operator ?? 'its operator'} (&quot;we&quot;,
          &quot;us&quot;), you agree to be bound by these Terms of Service. If you do not agree, please do not use the
          Service.
        </p>
      </section>

      <section aria-labelledby="terms-2">
        <h2 id="terms-2">2. Description of Service</h2>
        <p>
          SetupIQ uses artificial intelligence to analyze photos and descriptions of gaming and desk setups. It provides
          an overall score, category ratings, upgrade suggestions with product recommendations (some of which are
          affiliate links), a community where users can share and vote on setups, and personal RigPages. Some features
          require an account or credits.
        </p>
        <p>
          AI-generated ratings and suggestions are opinions for entertainment and general guidance only. They are not
          professional, medical or ergonomic advice.
        </p>
      </section>

      <section aria-labelledby="terms-3">
        <h2 id="terms-3">3. User Conduct</h2>
        <p>When using the Service you agree not to:</p>
        <ul>
          <li>upload content that is illegal, hateful, harassing, sexually explicit or violent;</li>
          <li>upload content that infringes anyone&apos;s copyright, trademark, privacy or other rights;</li>
          <li>post spam, manipulate votes or leaderboards, or impersonate others;</li>
          <li>attempt to disrupt, overload, reverse-engineer or gain unauthorized access to the Service;</li>
          <li>use automated means to create accounts, earn credits or scrape content.</li>
        </ul>
      </section>

      <section aria-labelledby="terms-4">
        <h2 id="terms-4">4. User Content</h2>
        <p>
          You keep ownership of the images, descriptions and other content you submit. By submitting content you grant
          us a non-exclusive, worldwide, royalty-free license to host, process and display it as needed to provide the
          Service, including showing content you choose to publish to the community or on your RigPage.
        </p>
        <p>You confirm that you have the rights to the content you submit and that it does not violate these Terms.</p>
      </section>

      <section aria-labelledby="terms-5">
        <h2 id="terms-5">5. Disclaimer of Warranties</h2>
        <p>
          The Service is provided &quot;as is&quot; and &quot;as available&quot;, without warranties of any kind,
          express or implied. We do not guarantee that the Service will be uninterrupted or error-free, or that AI
          results, product prices or availability are accurate or complete. To the extent permitted by law, we are not
          liable for indirect or consequential damages arising from your use of the Service.
        </p>
      </section>

      <section aria-labelledby="terms-6">
        <h2 id="terms-6">6. Moderation and Termination</h2>
        <p>
          We may review, hide or remove content that is reported or that we believe violates these Terms. We may
          suspend or terminate accounts that repeatedly or seriously violate them. You may delete your account at any
          time from the account menu; your profile, analyses, posts and RigPage are then permanently deleted.
        </p>
      </section>

      <section aria-labelledby="terms-7">
        <h2 id="terms-7">7. Governing Law</h2>
        <p>
          These Terms are governed by the laws of the Federal Republic of Germany. Mandatory consumer protection rules
          of your country of residence remain unaffected.
        </p>
      </section>

      <section aria-labelledby="terms-8">
        <h2 id="terms-8">8. Changes to Terms</h2>
        <p>
          We may update these Terms from time to time. We will post the new version on this page and update the date
          above. Continuing to use the Service after a change means you accept the updated Terms.
        </p>
      </section>

      <section aria-labelledby="terms-9">
        <h2 id="terms-9">9. Contact</h2>
        <p>
          Questions about these Terms?{' '}
          {legal?.contactEmail ? <>Write to us at <a href={`mailto:${legal.contactEmail}`}>{legal.contactEmail}</a> or use</> : 'Use'} our{' '}
          <Link to="/contact">contact form</Link>.
        </p>
      </section>
    </article>
  )
}
