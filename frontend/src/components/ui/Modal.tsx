import * as Dialog from '@radix-ui/react-dialog'
import { X } from 'lucide-react'
import { useRef, type ReactNode } from 'react'

interface ModalProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  title: ReactNode
  description?: ReactNode
  children: ReactNode
  wide?: boolean
  /** Whether Escape, outside clicks and the close button may close it (false while saving). */
  dismissible?: boolean
  /**
   * Where focus goes on close instead of the opener, when it answers an element (e.g. a list's
   * heading once the item that opened the dialog was deleted).
   */
  finalFocus?: () => HTMLElement | null | undefined
}

/**
 * An accessible dialog: focus is trapped inside and returns, on close, to what had it when
 * the dialog opened. These dialogs are opened from state, not through a Radix Trigger, so
 * Radix has no trigger to return focus to; the opener is remembered here instead.
 */
export function Modal({ open, onOpenChange, title, description, children, wide, dismissible = true, finalFocus }: ModalProps) {
  const opener = useRef<HTMLElement | null>(null)
  return (
    <Dialog.Root open={open} onOpenChange={(next) => (dismissible || next) && onOpenChange(next)}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          className={wide ? 'dialog dialog-wide' : 'dialog'}
          onOpenAutoFocus={() => {
            // Runs before focus moves into the dialog: the active element is still the opener.
            opener.current = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null
          }}
          onCloseAutoFocus={(event) => {
            const target = finalFocus?.() ?? opener.current
            opener.current = null
            // Gone (e.g. a menu item whose menu closed): leave focus where Radix puts it.
            if (!target?.isConnected) return
            event.preventDefault()
            target.focus({ preventScroll: true })
          }}
        >
          <Dialog.Title className="dialog-title">{title}</Dialog.Title>
          {description ? (
            <Dialog.Description className="dialog-description">{description}</Dialog.Description>
          ) : (
            <Dialog.Description className="sr-only">{title}</Dialog.Description>
          )}
          {children}
          {dismissible && (
            <Dialog.Close className="icon-btn dialog-close" aria-label="Close">
              <X aria-hidden="true" />
            </Dialog.Close>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
