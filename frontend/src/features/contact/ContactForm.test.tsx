import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Toaster } from 'sonner'
import { mockServer, renderApp, signedOut } from '@/test-utils'
import { ContactForm } from './ContactForm'

afterEach(() => vi.unstubAllGlobals())

describe('ContactForm', () => {
  it("shows the server's verdict under its field until any field is edited", async () => {
    mockServer({
      'GET /_api/auth/session': signedOut,
      'POST /_api/contact': {
        status: 400,
        body: { error: 'Please check the form.', code: 'validation_failed', issues: [{ path: 'email', message: 'This address cannot receive mail.' }] },
      },
    })
    renderApp(
      <>
        <ContactForm />
        <Toaster />
      </>,
    )
    await userEvent.type(screen.getByLabelText('Full Name'), 'Pixel Pete')
    await userEvent.type(screen.getByLabelText('Email Address'), 'pete@example.invalid')
    await userEvent.type(screen.getByLabelText('Message'), 'My desk light flickers, any idea?')
    await userEvent.click(screen.getByRole('button', { name: 'Send Message' }))
    expect(await screen.findByText('This address cannot receive mail.')).toBeInTheDocument()
    expect(await screen.findByText('Please check the form.')).toBeInTheDocument()

    // Editing another field is enough: the server has not seen the new form yet.
    await userEvent.type(screen.getByLabelText('Message'), ' Thanks!')
    expect(screen.queryByText('This address cannot receive mail.')).not.toBeInTheDocument()
    expect(screen.getByLabelText('Email Address')).not.toHaveAttribute('aria-invalid')
  })
})
