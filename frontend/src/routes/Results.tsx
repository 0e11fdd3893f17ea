import { useEffect, useRef, useState, type ReactNode } from 'react'
import { Link, Navigate, useLocation, useNavigate } from 'react-router-dom'
import { useSWRConfig } from 'swr'
import { Ticket, TriangleAlert } from 'lucide-react'
import { useAuth } from '@/lib/auth'
import { ProductLink } from '@/features/affiliate/components/ProductLink'
import { TrendingGear } from '@/features/affiliate/components/TrendingGear'
import { fetchAnalysis, MY_ANALYSES_KEY, type AnalysisResult } from '@/features/analysis/api'
import { ProOnlyDialog } from '@/features/analysis/components/ProOnlyDialog'
import { ResultsView } from '@/features/analysis/components/ResultsView'
import { MakePublicDialog, SharePanel, ShareUnavailable, shareLinkNatively, useResultShare } from '@/features/analysis/components/SharePanel'
import { exportPdf, type ReportInput } from '@/features/analysis/report'
import { readResultsState, type AnalyzeState } from '@/features/analysis/schemas'
import { useAnalysis, type AnalysisPhase } from '@/features/analysis/useAnalysis'
import { useVoice, voicedUrl } from '@/features/analysis/voice'
import { PublishDialog } from '@/features/community/components/PublishDialog'
import { useBalanceChanged } from '@/features/credits/api'
import { OutOfCreditsDialog, type OutOfCreditsClose } from '@/features/credits/components/OutOfCreditsDialog'
import { usePageTitle } from '@/lib/usePageTitle'

/** /results (spec 000 §2, §4 "Results"): analyses what Home sent, or shows a saved analysis. */
export default function Results() {
  usePageTitle('Results')
  const location = useLocation()
  const state = readResultsState(location.state)
  if (!state) return <Navigate to="/" replace />
  if ('savedAnalysis' in state && state.savedAnalysis) {
    const saved = state.savedAnalysis
    return <ResultsPage key={saved.id} result={saved.result} input={{ type: saved.inputType, value: saved.inputData }} sharePath={saved.sharePath} />
  }
  return <AnalyzeAndShow request={state as AnalyzeState} />
}

function AnalyzeAndShow({ request }: { request: AnalyzeState }) {
  const { user, claimedAnalysisId } = useAuth()
  const balanceChanged = useBalanceChanged()
  const { phase, retry } = useAnalysis(request, balanceChanged)
  const saving = useClaimedResult(phase.kind === 'done' && phase.response.analysisId == null && user ? claimedAnalysisId : null)
  const [creditsOpen, setCreditsOpen] = useState(false)
  // Who was asking, and with how many credits, when the server said there were none.
  const [refusedFor, setRefusedFor] = useState<{ userId: number | null; credits: number } | null>(null)
  const lastPhase = useRef<AnalysisPhase['kind'] | null>(null)

  useEffect(() => {
    if (phase.kind === lastPhase.current) return
    lastPhase.current = phase.kind
    if (phase.kind === 'needs-credits') {
      setRefusedFor({ userId: user?.id ?? null, credits: user?.credits ?? 0 })
      setCreditsOpen(true)
    } else {
      setRefusedFor(null)
    }
  }, [phase.kind, user])

  // After an ad, a sign-up or a sign-in brought credits: the analysis is retried.
  useEffect(() => {
    if (!refusedFor || !user) return
    if (user.id === refusedFor.userId && user.credits < refusedFor.credits) {
      // The cached balance was stale; count from the server's.
      setRefusedFor({ userId: user.id, credits: user.credits })
      return
    }
    const gained = user.id !== refusedFor.userId || user.credits > refusedFor.credits
    if (gained && (user.isPro || user.credits >= 1)) {
      setCreditsOpen(false)
      setRefusedFor(null)
      retry()
    }
  }, [refusedFor, user, retry])

  const onCreditsClose = (_reason: OutOfCreditsClose) => setCreditsOpen(false)

  const input: ReportInput & { fileName?: string | undefined } = {
    type: request.type,
    value: request.value,
    description: request.description,
    fileName: request.fileName,
  }

  let body
  if (phase.kind === 'done') {
    body = <ResultsPage key={phase.response.analysisId ?? 'trial'} result={phase.response} input={input} saving={saving} />
  } else if (phase.kind === 'loading') {
    body = <AnalyzingScreen phase={phase} />
  } else if (phase.kind === 'needs-credits') {
    body = <NeedsCredits message={phase.message} onChoose={() => setCreditsOpen(true)} />
  } else if (phase.kind === 'refused') {
    body = <AnalysisFailed message={phase.message} refused={request.type} />
  } else {
    body = <AnalysisFailed message={phase.message} onRetry={retry} />
  }
  return (
    <>
      {body}
      <OutOfCreditsDialog open={creditsOpen} onClose={onCreditsClose} message={phase.kind === 'needs-credits' ? phase.message : undefined} />
    </>
  )
}

/**
 * A visitor's free result that a sign-up or sign-in from this page saved to the account
 * (`claimedAnalysisId`): the page becomes the saved analysis, which the member can share.
 * True while it is being opened.
 */
function useClaimedResult(claimedId: number | null): boolean {
  const navigate = useNavigate()
  const { mutate } = useSWRConfig()
  const [failed, setFailed] = useState<number | null>(null)
  useEffect(() => {
    if (claimedId === null) return
    let live = true
    // My Setups lists it now.
    void mutate(MY_ANALYSES_KEY)
    fetchAnalysis(claimedId).then(
      (savedAnalysis) => {
        if (live) navigate('/results', { replace: true, state: { type: savedAnalysis.inputType, value: savedAnalysis.inputData, savedAnalysis } })
      },
      () => {
        if (live) setFailed(claimedId)
      },
    )
    return () => {
      live = false
    }
  }, [claimedId, navigate, mutate])
  return claimedId !== null && failed !== claimedId
}

function AnalyzingScreen({ phase }: { phase: Extract<AnalysisPhase, { kind: 'loading' }> }) {
  const uploading = phase.progress.stage === 'uploading' ? phase.progress : null
  const percent = uploading?.fraction !== null && uploading?.fraction !== undefined ? Math.round(uploading.fraction * 100) : null
  const stage = uploading ? 'Uploading' : 'Analyzing'
  return (
    <div className="container state analyzing" aria-busy="true">
      <div className="analyzing-spinner" aria-hidden="true" />
      <h1>Analyzing your setup...</h1>
      <p className="muted">Rating six categories, counting cables and picking upgrades. This takes a few seconds.</p>
      <ol className="plain-list analysis-stages" aria-label="Progress">
        <li className={uploading ? 'stage stage-current' : 'stage stage-done'} aria-current={uploading ? 'step' : undefined}>
          Uploading{uploading && percent !== null ? ` ${percent}%` : ''}
        </li>
        <li className={uploading ? 'stage' : 'stage stage-current'} aria-current={uploading ? undefined : 'step'}>
          Analyzing
        </li>
      </ol>
      <div
        className="analysis-bar"
        role="progressbar"
        aria-label="Analysis progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={uploading ? (percent ?? undefined) : undefined}
        aria-valuetext={uploading && percent !== null ? `Uploading ${percent}%` : stage}
      >
        <span className={uploading ? 'analysis-bar-fill' : 'analysis-bar-fill analysis-bar-indeterminate'} style={uploading ? { width: `${Math.max(4, (percent ?? 0) / 2)}%` } : undefined} />
      </div>
      <p className="sr-only" role="status">{stage}</p>
    </div>
  )
}

/** Behind the out-of-credits dialog, and after it was closed without a credit. */
function NeedsCredits({ message, onChoose }: { message: string; onChoose: () => void }) {
  const navigate = useNavigate()
  return (
    <div className="container state">
      <div className="state-icon" aria-hidden="true"><Ticket aria-hidden="true" /></div>
      <h1>Get a Credit to Continue</h1>
      <p className="muted" data-testid="analysis-error">{message}</p>
      <div className="row hero-actions">
        <button type="button" className="btn btn-secondary" onClick={() => navigate('/')}>Try Again</button>
        <button type="button" className="btn btn-primary" onClick={onChoose}>Get Credits</button>
      </div>
    </div>
  )
}

/** What makes a photo the analyzer can rate, shown when it refused one. */
const PHOTO_TIPS = [
  'Get the whole desk in frame: monitor, keyboard and chair.',
  'Turn the lights on (and your RGB, if you have it).',
  'Shoot from where you sit, or a step behind.',
  'Use a photo from your camera, not a screenshot.',
] as const

type AnalysisFailedProps =
  | { message: string; onRetry: () => void; refused?: undefined }
  /** The server refused the input (422): sending it again gets the same answer, so no retry. */
  | { message: string; refused: AnalyzeState['type']; onRetry?: undefined }

function AnalysisFailed({ message, onRetry, refused }: AnalysisFailedProps) {
  const navigate = useNavigate()
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => heading.current?.focus(), [])
  return (
    <div className="container state" role="alert">
      <div className="state-icon" aria-hidden="true"><TriangleAlert aria-hidden="true" /></div>
      <h1 ref={heading} tabIndex={-1}>Analysis Failed</h1>
      <p className="muted" data-testid="analysis-error">{message}</p>
      {refused === 'image' && (
        <section className="refusal-tips" aria-labelledby="refusal-tips-title">
          <h2 id="refusal-tips-title" className="refusal-tips-title">Tips for a better shot</h2>
          <ul className="check-list">
            {PHOTO_TIPS.map((tip) => <li key={tip}>{tip}</li>)}
          </ul>
        </section>
      )}
      {refused && <p className="hint">You weren't charged for this {refused === 'image' ? 'photo' : 'description'}.</p>}
      <div className="row hero-actions">
        {refused === 'image' ? (
          <button type="button" className="btn btn-primary" onClick={() => navigate('/')}>Choose another photo</button>
        ) : (
          <button type="button" className={refused ? 'btn btn-primary' : 'btn btn-secondary'} onClick={() => navigate('/')}>Try Again</button>
        )}
        {onRetry && <button type="button" className="btn btn-primary" onClick={onRetry}>Retry Analysis</button>}
      </div>
    </div>
  )
}

interface ResultsPageProps {
  result: AnalysisResult
  input: ReportInput & { fileName?: string | undefined }
  /** Where the saved analysis is shared, as the history said (`/share/{token}`). */
  sharePath?: string | null | undefined
  /** A visitor's result the sign-in just saved to the account, being opened. */
  saving?: boolean
}

function ResultsPage({ result, input, sharePath, saving = false }: ResultsPageProps) {
  const { state, user, openAuth } = useAuth()
  const [publishOpen, setPublishOpen] = useState(false)
  const [proOnlyOpen, setProOnlyOpen] = useState(false)
  const [confirmingShare, setConfirmingShare] = useState(false)
  const [voice, setVoice] = useVoice()
  // Only a saved analysis can be shared or published, and only by the signed-in user it belongs to.
  const ownedId = user && result.analysisId != null ? result.analysisId : null
  const share = useResultShare(ownedId, sharePath)
  const onExport = () => {
    // The real membership of the signed-in user (DESIGN.md §5).
    if (!user?.isPro) {
      setProOnlyOpen(true)
      return
    }
    exportPdf(result, input)
  }
  const shareNow = async () => {
    const link = await share.share()
    if (link) await shareLinkNatively(result.overallScore, voicedUrl(link.url, voice))
  }
  // The owner shares the public link (asked first while there is none: it makes the result
  // public); a visitor signs up first; a result not saved to the account has none.
  const onShare =
    ownedId !== null ? () => (share.link ? void shareNow() : setConfirmingShare(true)) : state.status === 'unauthenticated' ? () => openAuth('register') : null
  let sharePanel: ReactNode = null
  if (ownedId !== null) sharePanel = <SharePanel score={result.overallScore} share={share} voice={voice} />
  else if (state.status !== 'loading') sharePanel = <ShareUnavailable saving={saving} />
  return (
    <div className="container stack">
      <div className="row results-toolbar">
        <Link to="/" className="btn btn-secondary">Analyze Another Setup</Link>
        <div className="row results-toolbar-actions">
          {state.status === 'unauthenticated' && (
            <button type="button" className="btn btn-ghost" onClick={() => openAuth('login')}>Sign In</button>
          )}
          {onShare && <button type="button" className="btn btn-secondary" onClick={onShare}>Share</button>}
          {ownedId !== null && (
            <button type="button" className="btn btn-secondary" onClick={() => setPublishOpen(true)}>Share to Community</button>
          )}
          {ownedId !== null && <Link to={`/?rerate=${ownedId}`} className="btn btn-secondary">Re-rate this setup</Link>}
          <button type="button" className="btn btn-secondary" onClick={onExport}>
            Export PDF{!user?.isPro && <span className="badge badge-pro results-pro-badge">PRO</span>}
          </button>
        </div>
      </div>
      <MakePublicDialog
        open={confirmingShare}
        pending={share.pending === 'share'}
        onCancel={() => setConfirmingShare(false)}
        onConfirm={() => void shareNow().finally(() => setConfirmingShare(false))}
      />
      <ResultsView
        result={result}
        input={input}
        productLink={(product, context) => <ProductLink product={product} context={context} analysisId={result.analysisId} />}
        share={sharePanel}
        voice={voice}
        onVoiceChange={setVoice}
      >
        <TrendingGear />
      </ResultsView>
      {ownedId !== null && <PublishDialog open={publishOpen} onOpenChange={setPublishOpen} initialAnalysisId={ownedId} />}
      <ProOnlyDialog open={proOnlyOpen} onOpenChange={setProOnlyOpen} />
    </div>
  )
}
