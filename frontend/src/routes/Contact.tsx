import * as Accordion from '@radix-ui/react-accordion'
import type { ReactNode } from 'react'
import { Link } from 'react-router-dom'
import { Handshake, LifeBuoy } from 'lucide-react'
import { useSite } from '@/api/resources'
import { ContactForm } from '@/features/contact/ContactForm'
import { usePageTitle } from '@/lib/usePageTitle'

/**
 * Both cards' addresses are the server's: support (`SETUPIQ_SUPPORT_EMAIL`, where the form's messages
 * go too) and business inquiries (`SETUPIQ_BUSINESS_EMAIL`).
 */
function mailCards(supportEmail: string | undefined, businessEmail: string | undefined) {
  return [
    {
      icon: LifeBuoy,
      title: 'Support',
      text: 'Questions about your account, credits or an analysis result.',
      email: supportEmail,
    },
    {
      icon: Handshake,
      title: 'Business Inquiries',
      text: 'Partnerships, sponsorships, affiliate programs and press.',
      email: businessEmail,
    },
  ]
}

const FAQ: { id: string; question: string; answer: ReactNode }[] = [
  {
    id: 'how-ai-works',
    question: 'How does the AI analysis work?',
    answer: (
      <p>
        You upload a photo or describe your setup, and our AI model reviews it the way an experienced setup builder
        would. It scores six categories (Cable Management, RGB/Lighting, Desk Cleanliness, Monitor Setup, Chair &amp;
        Comfort and Aesthetic Vibe), combines them into your SetupIQ Score out of 10 and suggests the upgrades that would
        make the biggest difference.
      </p>
    ),
  },
  {
    id: 'data-safe',
    question: 'Is my data safe?',
    answer: (
      <p>
        Yes. Your images and descriptions travel over an encrypted connection, are processed only to create your
        analysis, and are never sold. Our <Link to="/privacy-policy">Privacy Policy</Link> explains what we collect and
        the rights you have.
      </p>
    ),
  },
  {
    id: 'pro-benefits',
    question: 'What are the benefits of the Pro plan?',
    answer: (
      <p>
        Pro members get unlimited analyses and PDF export of their reports, along with a Pro badge and a glowing
        avatar. For now, Pro membership is granted by the SetupIQ team.
      </p>
    ),
  },
]

export default function Contact() {
  usePageTitle('Contact')
  const { data: site } = useSite()
  return (
    <div className="container">
      <header className="hero">
        <span className="badge eyebrow">Contact</span>
        <h1>Get in Touch</h1>
        <p className="lead">
          Have a question, found a bug or want to work with us? Send us a message and we&apos;ll get back to you as soon
          as possible.
        </p>
      </header>

      <div className="contact-layout">
        <section className="card" aria-labelledby="contact-form-title">
          <h2 id="contact-form-title" className="card-title">Send Us a Message</h2>
          <ContactForm />
        </section>

        <section className="stack" aria-labelledby="contact-mail-title">
          <h2 id="contact-mail-title" className="card-title">Email Us Directly</h2>
          {mailCards(site?.supportEmail, site?.businessEmail).map((card) => (
            <div key={card.title} className="card card-hover">
              <div className="feature-icon" aria-hidden="true"><card.icon aria-hidden="true" /></div>
              <h3>{card.title}</h3>
              <p className="muted">{card.text}</p>
              {card.email && <a href={`mailto:${card.email}`} className="mail-link">{card.email}</a>}
            </div>
          ))}
        </section>
      </div>

      <section className="section page-narrow" aria-labelledby="contact-faq-title">
        <h2 id="contact-faq-title" className="section-title">Frequently Asked Questions</h2>
        <Accordion.Root type="single" collapsible className="card accordion">
          {FAQ.map((item) => (
            <Accordion.Item key={item.id} value={item.id} className="accordion-item">
              <Accordion.Header className="accordion-header">
                <Accordion.Trigger className="accordion-trigger">
                  {item.question}
                  <span className="accordion-chevron" aria-hidden="true">▾</span>
                </Accordion.Trigger>
              </Accordion.Header>
              <Accordion.Content className="accordion-content">{item.answer}</Accordion.Content>
            </Accordion.Item>
          ))}
        </Accordion.Root>
      </section>
    </div>
  )
}
