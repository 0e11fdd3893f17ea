import { useEffect, useRef, type ReactNode } from 'react'
import { Link } from 'react-router-dom'
import type { Schemas } from '@/api/client'
import { categoryScoreClass, categoryScoreText } from '@/lib/ratingBands'
import type { AnalysisResult, CategoryRating } from '../api'
import type { ReportInput } from '../report'
import { voicedResult, type Voice } from '../voice'
import { ProgressView } from './ProgressView'
import { ScoreBadge } from './ScoreBadge'
import { SuggestionCard, type RenderProductLink } from './SuggestionCard'
import { VoiceSwitch } from './VoiceSwitch'

const CABLE_TYPES: Record<Schemas['CableType'], string> = {
  monitor: 'Monitor',
  keyboard: 'Keyboard',
  mouse: 'Mouse',
  power: 'Power',
  audio: 'Audio',
  headphone: 'Headphone',
  other: 'Other',
}

const ANALYZERS: Record<string, string> = {
  local: 'Rated by the built-in analyzer',
  openai: 'Rated by an AI vision model',
}

type ConfidenceNotes = Record<Schemas['Confidence'], { label: string; why: string } | null>

/**
 * How firmly a category's score rests on the photo, said quietly under its comment. High says
 * nothing: it is the normal case. Results without a confidence (saved before it existed, or
 * rated by a provider) say nothing either, and neither does a category without a score (its
 * comment says why).
 */
const CONFIDENCE_NOTES: Record<ReportInput['type'], ConfidenceNotes> = {
  image: {
    high: null,
    medium: {
      label: 'Medium confidence',
      why: 'What the photo shows and how similar setups were rated disagree a little here.',
    },
    low: {
      label: 'Low confidence',
      why: 'Little to go on in the photo here.',
    },
  },
  // A description is never spoken of as a photo.
  text: {
    high: null,
    medium: {
      label: 'Medium confidence',
      why: 'Rated from what your description says, without a photo to confirm it.',
    },
    low: {
      label: 'Low confidence',
      why: 'Your description says little about this, so it is judged from the rest of what you describe.',
    },
  },
}

function ConfidenceNote({ confidence, inputType }: { confidence: CategoryRating['confidence']; inputType: ReportInput['type'] }) {
  const note = confidence ? CONFIDENCE_NOTES[inputType][confidence] : null
  if (!note) return null
  return (
    <p className="hint category-confidence" title={note.why} data-testid="category-confidence">
      {note.label}
      <span className="sr-only">: {note.why}</span>
    </p>
  )
}

/**
 * The six category cards. A category the photo or description doesn't show (no score) is the
 * placeholder `-/10` with its comment saying why: no band colour, no percentile.
 */
function CategoryGrid({ ratings, inputType }: { ratings: AnalysisResult['categoryRatings']; inputType: ReportInput['type'] }) {
  return (
    <section className="section results-section" aria-labelledby="categories-title">
      <div className="category-grid-head">
        <h2 id="categories-title">Category Breakdown</h2>
        <Link to="/how-we-score" className="category-grid-link">How we score</Link>
      </div>
      <ul className="grid grid-six plain-list" data-testid="category-grid">
        {ratings.map((rating) => {
          const unseen = rating.score === null || rating.score === undefined
          return (
            <li key={rating.category} className="card category-card" data-testid="category-card" data-unseen={unseen || undefined}>
              <div className="category-head">
                <h3>{rating.category}</h3>
                <span className={`category-score category-${categoryScoreClass(rating.score)}`} data-testid="category-score">
                  {categoryScoreText(rating.score)}
                </span>
              </div>
              <p className="muted">{rating.comment}</p>
              {!unseen && rating.percentile && <p className="hint">{rating.percentile}</p>}
              {!unseen && <ConfidenceNote confidence={rating.confidence} inputType={inputType} />}
            </li>
          )
        })}
      </ul>
    </section>
  )
}

/** The cables found: "spotted" in a photo, "mentioned" in a description (which is never spoken of as a photo). */
function CableInventoryList({ inventory, inputType }: { inventory: AnalysisResult['cableInventory']; inputType: ReportInput['type'] }) {
  const found = inputType === 'text' ? 'mentioned' : 'spotted'
  return (
    <section className="card results-section" aria-labelledby="cables-title">
      <h2 id="cables-title" className="card-title">Cable Inventory</h2>
      {inventory.type === 'none' || inventory.cables.length === 0 ? (
        <p className="muted">No cables {found}</p>
      ) : (
        <>
          <p className="muted">{inventory.totalCount} {inventory.totalCount === 1 ? 'cable' : 'cables'} {found}</p>
          <ul className="plain-list cable-list">
            {inventory.cables.map((cable, index) => (
              <li key={index} className="cable">
                <span className="badge">{CABLE_TYPES[cable.cableType] ?? cable.cableType}</span>
                <span className="cable-location">{cable.location}</span>
                {cable.isAesthetic && <span className="badge badge-success">Tidy</span>}
                <p className="muted">{cable.description}</p>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  )
}

interface ResultsViewProps {
  result: AnalysisResult
  input: ReportInput & { fileName?: string | undefined }
  /** The link of each suggested product (the page passes the affiliate feature's tracked link). */
  productLink: RenderProductLink
  /** Right after the score: how the result is shared (the page's share panel). */
  share?: ReactNode
  /** Sections after the upgrades (the page adds the trending gear). */
  children?: ReactNode
  /** How the summary and the categories' comments are told (Honest unless given). */
  voice?: Voice | undefined
  /** Shows the voice switch above the summary; called with the chosen voice. */
  onVoiceChange?: ((voice: Voice) => void) | undefined
}

/**
 * The whole result (spec 000 §2 "/results"): score, summary, how to share it, categories,
 * cables, upgrades, then what the page adds after them (trending gear).
 */
export function ResultsView({ result, input, productLink, share, children, voice = 'honest', onVoiceChange }: ResultsViewProps) {
  const told = voicedResult(result, voice)
  const photo = input.type === 'image' ? result.imageUrl ?? (input.value?.startsWith('data:image/') ? input.value : null) : null
  // The result replaces the loading screen: move focus to its heading so it is announced.
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => heading.current?.focus(), [])
  return (
    <div className="stack results">
      <section className="card results-hero" aria-labelledby="score-title">
        <div className="results-score">
          <h1 id="score-title" ref={heading} tabIndex={-1} className="results-title">Your SetupIQ Score</h1>
          <ScoreBadge score={result.overallScore} />
        </div>
        <div className="stack results-summary">
          {photo && <img className="results-photo" src={photo} alt={input.fileName ? `Your setup (${input.fileName})` : 'Your setup'} />}
          <p>
            <span className="badge" data-testid="setup-category">{result.category}</span>
          </p>
          {onVoiceChange && <VoiceSwitch value={voice} onChange={onVoiceChange} />}
          <p data-testid="summary" aria-live="polite">{told.summary}</p>
          {input.type === 'text' && input.value && <blockquote className="results-quote">{input.value}</blockquote>}
          {input.description && <p className="muted">Your note: {input.description}</p>}
          <p className="hint" data-testid="analyzer">{ANALYZERS[result.analyzer] ?? 'Rated by SetupIQ'}</p>
        </div>
      </section>

      {result.progress && <ProgressView result={{ ...result, progress: result.progress }} input={input} voice={voice} />}

      {share}

      <CategoryGrid ratings={told.categoryRatings} inputType={input.type} />
      <CableInventoryList inventory={result.cableInventory} inputType={input.type} />

      <section className="section results-section" aria-labelledby="upgrades-title">
        <h2 id="upgrades-title">Upgrade Recommendations</h2>
        {result.suggestions.length === 0 ? (
          <p className="muted">Nothing to upgrade: every category already scores 9 or more.</p>
        ) : (
          <ul className="grid grid-3 plain-list suggestion-grid">
            {result.suggestions.map((suggestion) => (
              <SuggestionCard key={suggestion.category} suggestion={suggestion} productLink={productLink} />
            ))}
          </ul>
        )}
        <p className="hint">
          Product links are affiliate links; buying through them supports SetupIQ at no extra cost to you.
        </p>
      </section>

      {children}
    </div>
  )
}
