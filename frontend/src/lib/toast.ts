/**
 * Toasts answer what the user did, never the first paint: their library (sonner) loads with
 * the first toast, beside the page, instead of with the app's first script. The `Toaster`
 * that shows them is mounted lazily by `app/providers.tsx`.
 */
type Sonner = typeof import('sonner')
type Message = Parameters<Sonner['toast']['success']>[0]
type Options = Parameters<Sonner['toast']['success']>[1]

let library: Promise<Sonner> | null = null
const sonner = () => (library ??= import('sonner'))

function show(kind: 'success' | 'error' | 'info', message: Message, options?: Options) {
  void sonner().then(({ toast }) => toast[kind](message, options))
}

export const toast = {
  success: (message: Message, options?: Options) => show('success', message, options),
  error: (message: Message, options?: Options) => show('error', message, options),
  info: (message: Message, options?: Options) => show('info', message, options),
  /** Every toast goes (tests start clean). */
  dismiss: () => void sonner().then(({ toast }) => toast.dismiss()),
}
