import { useId } from 'react'
import { VOICES, type Voice } from '../voice'

/**
 * Honest / Roast / Coach as a segmented control: native radio buttons (arrow keys move the
 * choice, Tab leaves the group) in a group named "Voice". It swaps the summary and the
 * categories' comments; the scores stay.
 */
export function VoiceSwitch({ value, onChange }: { value: Voice; onChange: (voice: Voice) => void }) {
  const id = useId()
  return (
    <div className="voice-switch">
      <div className="segmented" role="radiogroup" aria-label="Voice" aria-describedby={`${id}-hint`} data-testid="voice-switch">
        {VOICES.map((voice) => (
          <label key={voice.value} className={voice.value === value ? 'segmented-option segmented-option-selected' : 'segmented-option'}>
            <input
              type="radio"
              className="sr-only"
              name={`${id}-voice`}
              value={voice.value}
              checked={voice.value === value}
              onChange={() => onChange(voice.value)}
            />
            {voice.label}
          </label>
        ))}
      </div>
      <p id={`${id}-hint`} className="hint">Same scores, told another way.</p>
    </div>
  )
}
