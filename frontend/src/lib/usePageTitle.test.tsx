import { render } from '@testing-library/react'
import { pageTitle, usePageTitle } from './usePageTitle'

function Page({ name }: { name?: string }) {
  usePageTitle(name)
  return null
}

describe('page titles', () => {
  it('names the page before the site', () => {
    expect(pageTitle('Buy Credits')).toBe('Buy Credits · SetupIQ')
    expect(pageTitle()).toBe('SetupIQ · Gaming Setup Analyzer')
    expect(pageTitle('  ')).toBe('SetupIQ · Gaming Setup Analyzer')
  })

  it('sets the document title and follows a change', () => {
    const { rerender } = render(<Page name="Community" />)
    expect(document.title).toBe('Community · SetupIQ')
    rerender(<Page name="Pixel Pete's Profile" />)
    expect(document.title).toBe("Pixel Pete's Profile · SetupIQ")
    rerender(<Page />)
    expect(document.title).toBe('SetupIQ · Gaming Setup Analyzer')
  })
})
