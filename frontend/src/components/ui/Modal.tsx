import * as Dialog from '@radix-ui/react-dialog'
import type { ReactNode } from 'react'

interface ModalProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  title: ReactNode
  description?: ReactNode
  children: ReactNode
  wide?: boolean
  /** Whether Escape, outside clicks and the close button may close it (false while saving). */
  dismissible?: boolean
}

/** An accessible dialog: focus is trapped inside and returns to the trigger on close. */
export function Modal({ open, onOpenChange, title, description, children, wide, dismissible = true }: ModalProps) {
  return (
    <Dialog.Root open={open} onOpenChange={(next) => (dismissible || next) && onOpenChange(next)}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className={wide ? 'dialog dialog-wide' : 'dialog'} aria-describedby={description ? undefined : undefined}>
          <Dialog.Title className="dialog-title">{title}</Dialog.Title>
          {description ? (
            <Dialog.Description className="dialog-description">{description}</Dialog.Description>
          ) : (
            <Dialog.Description className="sr-only">{title}</Dialog.Description>
          )}
          {children}
          {dismissible && (
            <Dialog.Close className="icon-btn dialog-close" aria-label="Close">
              <span aria-hidden="true">✕</span>
            </Dialog.Close>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
