import { Detail, MissingDetails, useLegal } from '@/components/ui/LegalDetails'
import { usePageTitle } from '@/lib/usePageTitle'

export default function Impressum() {
  usePageTitle('Impressum')
  const legal = useLegal()
  const address = legal?.address ?? []
  return (
    <article className="container page-narrow prose legal">
      <header className="legal-header">
        <h1>Impressum</h1>
        <p className="legal-meta">Legal notice in accordance with § 5 DDG (<span lang="de">Angaben gemäß § 5 DDG</span>)</p>
        <MissingDetails
          legal={legal}
          needed={[
            ['its name', Boolean(legal?.operator)],
            ['its address', address.length > 0],
            ['a phone number', Boolean(legal?.phone)],
            ['a contact e-mail address', Boolean(legal?.contactEmail)],
            ['who represents it', Boolean(legal?.representative)],
            ['its register entry', Boolean(legal?.register)],
            ['its VAT ID', Boolean(legal?.vatId)],
          ]}
        />
      </header>

      <section aria-labelledby="imprint-company">
        <h2 id="imprint-company">Company (<span lang="de">Anbieter</span>)</h2>
        <p><Detail value={legal?.operator} /></p>
      </section>

      <section aria-labelledby="imprint-address">
        <h2 id="imprint-address">Address (<span lang="de">Anschrift</span>)</h2>
        <address className="legal-address">
          {address.length > 0 ? address.map((line, index) => <span key={index}>{line}<br /></span>) : <Detail value={null} />}
        </address>
      </section>

      <section aria-labelledby="imprint-contact">
        <h2 id="imprint-contact">Contact (<span lang="de">Kontakt</span>)</h2>
        <dl className="legal-list">
          <div><dt>Phone</dt><dd><Detail value={legal?.phone} /></dd></div>
          <div><dt>E-mail</dt><dd><Detail value={legal?.contactEmail && <a href={`mailto:${legal.contactEmail}`}>{legal.contactEmail}</a>} /></dd></div>
        </dl>
      </section>

      <section aria-labelledby="imprint-representative">
        <h2 id="imprint-representative">Represented by (<span lang="de">Vertreten durch</span>)</h2>
        <p><Detail value={legal?.representative} /></p>
        <dl className="legal-list">
          <div><dt>Commercial register (<span lang="de">Registereintrag</span>)</dt><dd><Detail value={legal?.register} /></dd></div>
          <div><dt>VAT ID (<span lang="de">USt-IdNr.</span>)</dt><dd><Detail value={legal?.vatId} /></dd></div>
        </dl>
        <p>
          Responsible for content according to § 18 (2) MStV (<span lang="de">Verantwortlich für den Inhalt nach § 18 Abs. 2 MStV</span>):{' '}
          {legal?.representative ? `${legal.representative}, address as above.` : <Detail value={null} />}
        </p>
      </section>

      <section aria-labelledby="imprint-disclaimer">
        <h2 id="imprint-disclaimer">Disclaimer (<span lang="de">Haftungsausschluss</span>)</h2>
        <h3>Liability for content</h3>
        <p>
          We compile the content of these pages with great care but cannot guarantee that it is accurate, complete or
          up to date. AI-generated ratings and suggestions are automated opinions, not professional advice. As a
          service provider we are responsible for our own content under the general laws; we are not obliged to monitor
          third-party information we transmit or store, and we remove unlawful content as soon as we become aware of it.
        </p>
        <h3>Liability for links</h3>
        <p>
          Our pages contain links to external websites, including affiliate links to online shops. We have no influence
          on their content, and their operators are solely responsible for it. Linked pages were checked for obvious
          legal violations when the link was created; if we become aware of any, we remove the link promptly.
        </p>
        <h3>Copyright</h3>
        <p>
          Content and works created by us on these pages are subject to German copyright law. Setups published by users
          remain the property of their creators. Reproduction beyond the limits of copyright law requires the written
          consent of the respective author.
        </p>
      </section>
    </article>
  )
}
