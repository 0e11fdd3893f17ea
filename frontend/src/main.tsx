import { StrictMode, startTransition } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app/App'
import './styles.css'

const root = document.getElementById('root')
if (root) {
  // The first render as a transition: React yields to the browser every few milliseconds
  // instead of holding the main thread for the whole page at once (on a slow phone that one
  // task was the longest of the first visit, and input waited behind it).
  startTransition(() => {
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    )
  })
}
