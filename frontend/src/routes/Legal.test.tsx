import { screen } from '@testing-library/react'
import type { ReactElement } from 'react'
import { mockServer, renderApp, signedOut, siteReply, unsetLegal } from '@/test-utils'
import Impressum from './Impressum'
import PrivacyPolicy from './PrivacyPolicy'
import Terms from './Terms'

afterEach(() => vi.unstubAllGlobals())

const unset = unsetLegal
const configured = {
  operator: 'Rig Labs GmbH',
  address: ['Hauptstr. 1', '10115 Berlin'],
  contactEmail: 'legal@riglabs.example',
  phone: '+49 30 123456',
  representative: 'Dana Rig',
  register: 'Amtsgericht Berlin, HRB 12345',
  vatId: 'DE123456789',
  policyDate: '2026-03-14',
}

function renderPage(page: ReactElement, legal: typeof unset | typeof configured) {
  mockServer({ 'GET /_api/auth/session': signedOut, 'GET /_api/site': siteReply({ legal }) })
  return renderApp(page)
}

const pages: [string, ReactElement][] = [
  ['Impressum', <Impressum />],
  ['Privacy Policy', <PrivacyPolicy />],
  ['Terms of Service', <Terms />],
]

describe.each(pages)('%s', (_name, page) => {
  it('says once what the operator has not provided, and never shows a bracketed placeholder', async () => {
    const { container } = renderPage(page, unset)
    const notes = await screen.findAllByRole('note')
    expect(notes).toHaveLength(1)
    expect(notes[0]).toHaveTextContent(/^The operator of this site has not provided .+ yet\.$/)
    expect(container.textContent).not.toMatch(/\[[A-Z][^\]]*\]/)
    expect(container.textContent).not.toMatch(/Last updated/)
  })

  it('shows the configured details', async () => {
    const { container } = renderPage(page, configured)
    await vi.waitFor(() => expect(container.textContent).toMatch(/Rig Labs GmbH|legal@riglabs\.example|March 14, 2026/))
    expect(screen.queryByRole('note')).not.toBeInTheDocument()
    expect(container.textContent).not.toMatch(/\[[A-Z][^\]]*\]/)
  })
})

it('the Impressum lists every configured detail', async () => {
  renderPage(<Impressum />, configured)
  for (const text of ['Rig Labs GmbH', 'Hauptstr. 1', '10115 Berlin', '+49 30 123456', 'legal@riglabs.example', 'Amtsgericht Berlin, HRB 12345', 'DE123456789']) {
    expect(await screen.findByText(text, { exact: false })).toBeInTheDocument()
  }
})

it('the terms name the operator and date, and give the contact address', async () => {
  renderPage(<Terms />, configured)
  expect(await screen.findByText('Last updated: March 14, 2026')).toBeInTheDocument()
  expect(screen.getByText(/operated by Rig Labs GmbH/)).toBeInTheDocument()
  expect(screen.getByRole('link', { name: 'legal@riglabs.example' })).toHaveAttribute('href', 'mailto:legal@riglabs.example')
})
