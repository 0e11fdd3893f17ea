import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import { toast } from '@/lib/toast'
import { ApiError, messageOf } from '@/api/client'
import { Field, TextAreaField } from '@/components/ui/Field'
import { useServerErrors } from '@/lib/useServerErrors'
import { sendContactMessage } from './api'
import { contactSchema, type ContactValues } from './schemas'

type ContactField = keyof ContactValues
const isField = (path: string): path is ContactField => path === 'name' || path === 'email' || path === 'message'

/** The contact form: validates on blur and on submit, then sends the message to support. */
export function ContactForm() {
  const form = useForm<ContactValues>({
    resolver: zodResolver(contactSchema),
    mode: 'onTouched',
    defaultValues: { name: '', email: '', message: '' },
  })
  const { register, handleSubmit, formState, reset, trigger } = form
  const { errors, isSubmitting } = formState
  // The server's verdicts go stale as soon as any field is edited.
  const showServerError = useServerErrors(form)

  // Validation runs on blur, but a field that shows an error re-checks while typing: otherwise
  // the error would vanish on the submit button's mousedown, moving the button from under the
  // pointer so that the click is lost.
  const field = (name: ContactField) =>
    register(name, {
      onChange: () => {
        if (errors[name]) void trigger(name)
      },
    })

  const onSubmit = handleSubmit(async (values) => {
    try {
      await sendContactMessage(values)
      toast.success('Your message has been sent!', { description: "We'll get back to you as soon as possible." })
      reset()
    } catch (error) {
      // The server checks the same rules; show its verdict next to the field it concerns.
      if (error instanceof ApiError) {
        for (const issue of error.issues) {
          if (isField(issue.path)) showServerError(issue.path, issue.message)
        }
      }
      toast.error(messageOf(error, 'Failed to send your message. Please try again.'))
    }
  })

  return (
    <form className="stack" onSubmit={onSubmit} noValidate aria-label="Contact form">
      <Field label="Full Name" autoComplete="name" error={errors.name?.message} {...field('name')} />
      <Field label="Email Address" type="email" autoComplete="email" error={errors.email?.message} {...field('email')} />
      <TextAreaField label="Message" rows={6} error={errors.message?.message} {...field('message')} />
      <button type="submit" className="btn btn-primary btn-block" disabled={isSubmitting}>
        {isSubmitting ? 'Sending...' : 'Send Message'}
      </button>
    </form>
  )
}
