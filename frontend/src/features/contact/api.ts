import { api, unwrap, type Schemas } from '@/api/client'

/** Sends a message to the support team (`POST /_api/contact`). */
export async function sendContactMessage(body: Schemas['ContactRequest']) {
  return unwrap(await api.POST('/_api/contact', { body }), 'Failed to send your message. Please try again.')
}
