import { useEffect, useMemo, useRef, useState } from 'react'
import { Link, useNavigate } from 'react-router-dom'
import { toast } from '@/lib/toast'
import { LockKeyhole, TriangleAlert } from 'lucide-react'
import { ApiError, messageOf } from '@/api/client'
import { Field, TextAreaField } from '@/components/ui/Field'
import { Skeleton } from '@/components/ui/Skeleton'
import { useAuth } from '@/lib/auth'
import { plural } from '@/lib/plural'
import { useEditor, useSaveConfig, type SaveResponse } from '../api'
import {
  BIO_MAX, BUTTON_STYLES, FONT_STYLES, SOCIAL_FIELDS, SOCIAL_PLATFORMS, TAGLINE_MAX,
  addLinkCosts, applyTheme, credits, draftFromEditor, fieldErrorsOf, fieldName, linkBatches, moveItem, newKey,
  radiusLabel, saveCost, sectionNames, toRequest, withScheme,
  type Draft, type DraftLink, type SocialPlatform, type Editor, type FieldErrors, type ThemePreset,
} from '../draft'
import { checkRequest, newLinkSchema, fieldErrorsOfZod } from '../schemas'
import { ColorField, SelectField, Slider, SwitchRow } from './Controls'
import { CreditConfirmDialog, type PaidAction } from './CreditConfirmDialog'
import { ImageUpload } from './ImageUpload'
import { LinksEditor, type NewLink } from './LinksEditor'
import { PreviewPane } from './PreviewPane'
import { SectionsEditor } from './SectionsEditor'
import { SetupPicker } from './SetupPicker'
import { SharePanel, StatsPanel } from './SharePanel'
import { ThemePicker } from './ThemePicker'

/** Whether saving `slug` renames a page that has been public (its old address then redirects for 90 days). */
export function renamesLivePage(editor: { saved: boolean; everPublished: boolean; rigpageSlug?: string | null }, slug: string): boolean {
  const before = editor.rigpageSlug
  return editor.saved && editor.everPublished && before != null && slug.trim() !== '' && slug.trim().toLowerCase() !== before.toLowerCase()
}

export const GO_LIVE_NEEDS = 'Going live needs a page URL (slug) and a selected setup.'

function EditorSkeleton() {
  return (
    <div className="container stack" role="status" aria-busy="true">
      <span className="sr-only">Loading your RigPage</span>
      <Skeleton height={40} width="50%" />
      <Skeleton height={96} />
      <div className="rp-layout">
        <Skeleton height={480} />
        <Skeleton height={480} />
      </div>
    </div>
  )
}

/**
 * The RigPage editor (/rigpage-config, spec §2, §4, §5, §8): visitors get the sign-in
 * dialog (closing it goes home); members edit their page beside a live preview.
 */
export function RigpageEditorPage() {
  const { state, authDialog, openAuth } = useAuth()
  const navigate = useNavigate()
  const asked = useRef(false)
  const signedIn = state.status === 'authenticated'
  const editor = useEditor(signedIn)

  useEffect(() => {
    if (state.status !== 'unauthenticated') {
      asked.current = false
      return
    }
    if (authDialog.open) {
      asked.current = true
    } else if (asked.current) {
      navigate('/', { replace: true })
    } else {
      openAuth('login')
    }
  }, [state.status, authDialog.open, openAuth, navigate])

  if (state.status === 'unauthenticated') {
    return (
      <div className="container state">
        <div className="state-icon" aria-hidden="true"><LockKeyhole aria-hidden="true" /></div>
        <h1>Create Your Link in Bio</h1>
        <p className="muted">Log in to build your RigPage.</p>
        <button type="button" className="btn btn-primary" onClick={() => openAuth('login')}>Log In</button>
      </div>
    )
  }
  if (state.status === 'loading' || (!editor.data && !editor.error)) return <EditorSkeleton />
  if (!editor.data) {
    return (
      <div className="container state">
        <div className="state-icon" aria-hidden="true"><TriangleAlert aria-hidden="true" /></div>
        <h1>Create Your Link in Bio</h1>
        <p className="form-error" role="alert">{messageOf(editor.error, 'Failed to fetch RigPage config.')}</p>
        <button type="button" className="btn btn-secondary" onClick={() => void editor.mutate()}>Try Again</button>
      </div>
    )
  }
  return <EditorForm editor={editor.data} />
}

/** The public site's origin (from the page's address, else this one). */
function originOf(publicUrl: string | null | undefined): string {
  try {
    return new URL(publicUrl ?? '', window.location.origin).origin
  } catch {
    return window.location.origin
  }
}

/** Keys of the old draft kept for the same rows of the saved one (no remounting after a save). */
function withKeysOf(previous: Draft, next: Draft): Draft {
  return {
    ...next,
    links: next.links.map((link, i) => ({ ...link, key: previous.links[i]?.key ?? link.key })),
    sections: next.sections.map((section, i) => ({ ...section, key: previous.sections[i]?.key ?? section.key })),
  }
}

/** The errors without those under any of `prefixes` (a field, or all the links). */
function without(errors: FieldErrors, ...prefixes: string[]): FieldErrors {
  const next: FieldErrors = {}
  for (const [path, message] of Object.entries(errors)) {
    if (!prefixes.some((p) => path === p || path.startsWith(`${p}.`))) next[path] = message
  }
  return next
}

type Saving = 'save' | PaidAction | null
type Dialog = { action: 'publish' } | { action: 'link'; link: DraftLink } | null

/** Thrown when the client's own check fails, so the caller toasts like a server refusal. */
class InvalidDraft extends Error {}

/** A failed save as the toast says it, naming the field: "Link 2 URL: Please enter a valid URL." */
function failureOf(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.issues[0]) return `${fieldName(error.issues[0].path)}: ${error.issues[0].message}`
  return messageOf(error, fallback)
}

/** The first problem of a draft, naming its field. */
function firstProblem(problems: FieldErrors): string | undefined {
  const [path, message] = Object.entries(problems)[0] ?? []
  return path === undefined ? undefined : `${fieldName(path)}: ${message}`
}

export function EditorForm({ editor }: { editor: Editor }) {
  const { user } = useAuth()
  const save = useSaveConfig()
  const [draft, setDraft] = useState<Draft>(() => draftFromEditor(editor))
  const [errors, setErrors] = useState<FieldErrors>({})
  const [saving, setSaving] = useState<Saving>(null)
  const [dialog, setDialog] = useState<Dialog>(null)
  const [newLink, setNewLink] = useState<NewLink>({ label: '', url: '' })
  const [newLinkErrors, setNewLinkErrors] = useState<FieldErrors>({})

  const request = useMemo(() => toRequest(draft), [draft])
  // Every field is checked as it is typed; a save's or the server's errors come first.
  const liveProblems = useMemo(() => checkRequest(request), [request])
  const shownErrors = useMemo(() => ({ ...liveProblems, ...errors }), [liveProblems, errors])
  // The preview follows the last draft that passes the check: no request per keystroke
  // of an address being typed, and no refusal to show.
  const [previewed, setPreviewed] = useState(request)
  const valid = Object.keys(liveProblems).length === 0
  if (valid && previewed !== request) setPreviewed(request)
  const balance = user?.credits ?? editor.credits
  const names = useMemo(() => sectionNames(draft.sections), [draft.sections])
  const setup = editor.setups.find((s) => s.id === draft.rigpageSetupId) ?? null
  const canGoLive = request.rigpageSlug != null && request.rigpageSetupId != null
  const slugLocked = !draft.rigpageEnabled && draft.rigpageSlug.trim() !== '' && !errors.rigpageSlug
  const live = editor.saved && editor.rigpageEnabled && editor.rigpageSlug

  const set = <K extends keyof Draft>(key: K, value: Draft[K], errorPath: string = key) => {
    setDraft((d) => ({ ...d, [key]: value }))
    setErrors((e) => without(e, errorPath))
  }

  const setSocial = (platform: SocialPlatform, value: string) => {
    setDraft((d) => ({ ...d, rigpageSocialLinks: { ...d.rigpageSocialLinks, [platform]: value } }))
    setErrors((e) => without(e, `rigpageSocialLinks.${platform}`))
  }

  /** Checks and saves `next`; on success the draft becomes what the server saved. */
  const persist = async (next: Draft, kind: Exclude<Saving, null>): Promise<SaveResponse> => {
    const body = toRequest(next)
    const problems = checkRequest(body)
    const first = firstProblem(problems)
    if (first !== undefined) {
      setErrors(problems)
      throw new InvalidDraft(first)
    }
    setSaving(kind)
    try {
      const saved = await save(body, saveCost({ enabled: next.rigpageEnabled, linkCount: next.links.length }, editor))
      setDraft(withKeysOf(next, draftFromEditor(saved)))
      setErrors({})
      return saved
    } catch (error) {
      setErrors(fieldErrorsOf(error))
      throw error
    } finally {
      setSaving(null)
    }
  }

  const saveChanges = async () => {
    try {
      await persist(draft, 'save')
      toast.success('Changes saved!')
    } catch (error) {
      toast.error(`Failed to save: ${failureOf(error, 'An unknown error occurred.')}`)
    }
  }

  const publish = async () => {
    try {
      await persist({ ...draft, rigpageEnabled: true }, 'publish')
      setDialog(null)
      toast.success('Your RigPage is now live! 🎉')
    } catch (error) {
      setDialog(null)
      toast.error(messageOf(error, 'Failed to publish RigPage'))
    }
  }

  /** The client's check of a draft before a paid action; false (and the errors shown) when it fails. */
  const passes = (next: Draft, fail: (message: string) => void): boolean => {
    const problems = checkRequest(toRequest(next))
    const first = firstProblem(problems)
    if (first === undefined) return true
    setErrors(problems)
    fail(first)
    return false
  }

  const goLive = () => {
    if (!canGoLive) {
      setErrors((e) => ({
        ...e,
        ...(request.rigpageSlug == null ? { rigpageSlug: 'URL must be at least 3 characters.' } : {}),
        ...(request.rigpageSetupId == null ? { rigpageSetupId: 'Please choose one of your setups.' } : {}),
      }))
      toast.error(GO_LIVE_NEEDS)
      return
    }
    if (!passes({ ...draft, rigpageEnabled: true }, (message) => toast.error(message))) return
    const cost = saveCost({ enabled: true, linkCount: draft.links.length }, editor)
    if (cost > 0) setDialog({ action: 'publish' })
    else void publish()
  }

  const togglePublic = (on: boolean) => {
    if (on && !editor.everPublished) goLive()
    else set('rigpageEnabled', on)
  }

  const addLink = () => {
    const checked = newLinkSchema.safeParse({ ...newLink, url: withScheme(newLink.url) })
    if (!checked.success) {
      setNewLinkErrors(fieldErrorsOfZod(checked.error))
      return
    }
    setNewLinkErrors({})
    const link: DraftLink = { key: newKey('l'), id: null, label: checked.data.label, url: checked.data.url, section: null, imageUrl: null, enabled: true }
    if (addLinkCosts(draft.links.length, editor.paidLinkBatches, editor.freeLinks, editor.linksPerBatch)) {
      // Adding it saves the whole page at once: the rest must pass too.
      if (!passes({ ...draft, links: [...draft.links, link] }, (message) => toast.error(message))) return
      setDialog({ action: 'link', link })
      return
    }
    setDraft((d) => ({ ...d, links: [...d.links, link] }))
    setNewLink({ label: '', url: '' })
  }

  const confirmLink = async (link: DraftLink) => {
    try {
      const saved = await persist({ ...draft, links: [...draft.links, link] }, 'link')
      setDialog(null)
      setNewLink({ label: '', url: '' })
      toast.success(saved.charged.linkBatches > 0 ? `Link added! ${credits(saved.charged.linkBatches)} deducted.` : 'Link added!')
    } catch (error) {
      setDialog(null)
      toast.error(messageOf(error, 'Failed to add link'))
    }
  }

  const changeLink = (key: string, changes: Partial<DraftLink>) => {
    const index = draft.links.findIndex((l) => l.key === key)
    setDraft((d) => ({ ...d, links: d.links.map((l) => (l.key === key ? { ...l, ...changes } : l)) }))
    setErrors((e) => without(e, ...Object.keys(changes).map((field) => `links.${index}.${field}`)))
  }

  const removeLink = (key: string) => {
    setDraft((d) => ({ ...d, links: d.links.filter((l) => l.key !== key) }))
    setErrors((e) => without(e, 'links'))
  }

  const moveLink = (from: number, to: number) => {
    setDraft((d) => ({ ...d, links: moveItem(d.links, from, to) }))
    setErrors((e) => without(e, 'links'))
  }

  const renameSection = (key: string, name: string) => {
    setDraft((d) => {
      const old = d.sections.find((s) => s.key === key)?.name.trim()
      const renamed = name.trim()
      return {
        ...d,
        sections: d.sections.map((s) => (s.key === key ? { ...s, name } : s)),
        // Links in the section follow its new name.
        links: old ? d.links.map((l) => (l.section === old ? { ...l, section: renamed || null } : l)) : d.links,
      }
    })
    setErrors((e) => without(e, 'sections'))
  }

  const removeSection = (key: string) => {
    setDraft((d) => {
      const name = d.sections.find((s) => s.key === key)?.name.trim()
      const rest = d.sections.filter((s) => s.key !== key)
      const stillNamed = rest.some((s) => s.name.trim() === name)
      return {
        ...d,
        sections: rest,
        links: name && !stillNamed ? d.links.map((l) => (l.section === name ? { ...l, section: null } : l)) : d.links,
      }
    })
    setErrors((e) => without(e, 'sections'))
  }

  const chooseTheme = (theme: ThemePreset) => {
    setDraft((d) => applyTheme(d, theme))
    setErrors((e) => without(e, 'rigpageHighlightColor', 'backgroundOverlay', 'buttonCornerRadius'))
    toast.success(`Theme "${theme.name}" applied with preset customizations!`)
  }

  const chooseSetup = (id: number) => set('rigpageSetupId', id)

  const linkCount = draft.links.length
  const nextLinkCosts = addLinkCosts(linkCount, editor.paidLinkBatches, editor.freeLinks, editor.linksPerBatch)
  const allowance =
    linkCount < editor.freeLinks
      ? `${linkCount} of ${plural(editor.freeLinks, 'free link')} used.`
      : nextLinkCosts
        ? `The next link unlocks ${editor.linksPerBatch} more for 1 credit.`
        : `${plural(linkCount, 'link')}; ${linkBatches(linkCount, editor.freeLinks, editor.linksPerBatch) * editor.linksPerBatch + editor.freeLinks - linkCount} more before the next credit.`

  const dialogCost =
    dialog?.action === 'publish'
      ? saveCost({ enabled: true, linkCount }, editor)
      : dialog?.action === 'link'
        ? saveCost({ enabled: draft.rigpageEnabled, linkCount: linkCount + 1 }, editor)
        : 0

  const setupHasImage = setup !== null && Boolean(setup.inputData)
  const slidersEnabled = setupHasImage && draft.showSetupInBackground

  return (
    <div className="container stack rp-page">
      <header className="rp-head">
        <span className="badge eyebrow">RigPage</span>
        <h1>Create Your Link in Bio</h1>
        <p className="lead muted">One page for your setup, your socials and your links. Share it everywhere.</p>
      </header>

      <section className="card rp-hero" aria-label="Your best score">
        {editor.bestScore != null ? (
          <>
            <span className="rp-hero-label">Your Best Score</span>
            <strong className="rp-hero-score" data-testid="best-score">{editor.bestScore.toFixed(1)}</strong>
          </>
        ) : (
          <p className="rp-hero-empty">
            No analyses yet? Analyze your first setup to get started! <Link to="/" className="btn btn-primary btn-sm">Analyze a Setup</Link>
          </p>
        )}
      </section>

      <div className="rp-layout">
        <div className="stack rp-form" id="rp-form">
          <section className="card stack" aria-labelledby="rp-theme-title">
            <h2 id="rp-theme-title" className="card-title">Theme</h2>
            <ThemePicker value={draft.rigpageTheme} onChoose={chooseTheme} />
          </section>

          <section className="card stack" aria-labelledby="rp-page-title">
            <h2 id="rp-page-title" className="card-title">Your Page</h2>
            <SwitchRow
              label="Public page"
              hint={draft.rigpageEnabled ? 'Visitors can see your RigPage.' : editor.everPublished ? 'Your RigPage is private.' : `Your RigPage is private. Going live costs ${credits(editor.publishCost)}, once.`}
              checked={draft.rigpageEnabled}
              onChange={togglePublic}
              disabled={saving !== null}
            />
            <Field
              label="Page URL"
              value={draft.rigpageSlug}
              maxLength={30}
              autoComplete="off"
              spellCheck={false}
              disabled={slugLocked}
              error={errors.rigpageSlug}
              hint={`${originOf(editor.publicUrl)}/rig/${draft.rigpageSlug.trim() || 'your-name'}${slugLocked ? ' · Make your page public to change it.' : ''}`}
              onChange={(event) => set('rigpageSlug', event.target.value)}
            />
            {renamesLivePage(editor, draft.rigpageSlug) && (
              <p className="field-warning" role="note" data-testid="slug-warning">
                Changing your URL moves your page. For 90 days, {originOf(editor.publicUrl)}/rig/{editor.rigpageSlug} leads
                to the new address and nobody else can take it; after that, printed QR codes and links you shared with the
                old address stop working.
              </p>
            )}
            <SwitchRow
              label="Show RigPage badge on Community"
              hint="Your posts link to your RigPage."
              checked={draft.showRigpageOnCommunity}
              onChange={(on) => set('showRigpageOnCommunity', on)}
              disabled={!draft.rigpageEnabled}
            />
            <Field label="Display Name" value={editor.displayName} readOnly hint={<>Change it on <Link to="/profile">your profile</Link>.</>} />
          </section>

          <section className="card stack" aria-labelledby="rp-setup-title">
            <h2 id="rp-setup-title" className="card-title">Showcased Setup</h2>
            <SetupPicker setups={editor.setups} value={draft.rigpageSetupId} onChange={chooseSetup} error={errors.rigpageSetupId} />
          </section>

          <section className="card stack" aria-labelledby="rp-profile-title">
            <h2 id="rp-profile-title" className="card-title">Profile</h2>
            <div className="row rp-avatar-row">
              <span className="avatar avatar-lg rp-avatar">
                {draft.rigpageAvatar || editor.profilePicture ? (
                  <img src={draft.rigpageAvatar ?? editor.profilePicture ?? ''} alt="Your RigPage avatar" />
                ) : (
                  <span aria-hidden="true">{editor.username.slice(0, 2).toUpperCase()}</span>
                )}
              </span>
              <div className="stack rp-avatar-actions">
                <div className="row">
                  <ImageUpload
                    kind="avatar"
                    label="Avatar image"
                    buttonText={draft.rigpageAvatar ? 'Change Avatar' : 'Upload Avatar'}
                    successMessage="Avatar uploaded! Remember to save changes."
                    failureMessage="Failed to upload avatar. Please try again."
                    onUploaded={(url) => set('rigpageAvatar', url)}
                  />
                  {draft.rigpageAvatar && <button type="button" className="btn btn-ghost btn-sm" onClick={() => set('rigpageAvatar', null)}>Use Profile Picture</button>}
                </div>
                <p className="hint">PNG, JPG or WebP, up to 5MB.</p>
                {errors.rigpageAvatar && <p className="field-error" role="alert">{errors.rigpageAvatar}</p>}
              </div>
            </div>
            <Field
              label="Tagline"
              value={draft.rigpageTagline}
              maxLength={TAGLINE_MAX}
              placeholder="e.g. FPS streamer & RGB addict"
              error={errors.rigpageTagline}
              hint={`${draft.rigpageTagline.length}/${TAGLINE_MAX}`}
              onChange={(event) => set('rigpageTagline', event.target.value)}
            />
            <div className="stack rp-bio">
              <TextAreaField
                label="Bio"
                rows={3}
                value={draft.rigpageBio}
                maxLength={BIO_MAX}
                placeholder="A few words about you and your setup"
                error={errors.rigpageBio}
                onChange={(event) => set('rigpageBio', event.target.value)}
              />
              <p className="hint" aria-live="polite">{`${draft.rigpageBio.length}/${BIO_MAX}`}</p>
            </div>
          </section>

          <section className="card stack" aria-labelledby="rp-social-title">
            <h2 id="rp-social-title" className="card-title">Social Links</h2>
            <div className="grid grid-2">
              {SOCIAL_PLATFORMS.map((platform) => (
                <Field
                  key={platform}
                  label={SOCIAL_FIELDS[platform].label}
                  type={platform === 'email' ? 'email' : 'url'}
                  inputMode={platform === 'email' ? 'email' : 'url'}
                  placeholder={SOCIAL_FIELDS[platform].placeholder}
                  value={draft.rigpageSocialLinks[platform]}
                  error={shownErrors[`rigpageSocialLinks.${platform}`]}
                  onChange={(event) => setSocial(platform, event.target.value)}
                  onBlur={platform === 'email' ? undefined : (event) => withScheme(event.target.value) !== event.target.value && setSocial(platform, withScheme(event.target.value))}
                />
              ))}
            </div>
          </section>

          <section className="card stack" aria-labelledby="rp-style-title">
            <h2 id="rp-style-title" className="card-title">Style</h2>
            <div className="grid grid-2">
              <ColorField label="Highlight color" value={draft.rigpageHighlightColor} error={errors.rigpageHighlightColor} onChange={(value) => set('rigpageHighlightColor', value)} />
              <SelectField label="Font" value={draft.fontStyle} options={FONT_STYLES} onChange={(value) => set('fontStyle', value)} />
              <SelectField label="Button style" value={draft.buttonStyle} options={BUTTON_STYLES} onChange={(value) => set('buttonStyle', value)} />
              <Slider
                label="Corner radius"
                min={0}
                max={100}
                value={draft.buttonCornerRadius}
                valueText={`${draft.buttonCornerRadius} · ${radiusLabel(draft.buttonCornerRadius)}`}
                onChange={(value) => set('buttonCornerRadius', value)}
              />
            </div>
          </section>

          <section className="card stack" aria-labelledby="rp-bg-title">
            <h2 id="rp-bg-title" className="card-title">Background</h2>
            <div className="row">
              {draft.backgroundImage && <img src={draft.backgroundImage} alt="Your background" className="rp-bg-thumb" />}
              <ImageUpload
                kind="background"
                label="Background image"
                buttonText={draft.backgroundImage ? 'Change Background' : 'Upload Background'}
                successMessage="Background image uploaded! Remember to save changes."
                failureMessage="Failed to upload background image. Please try again."
                onUploaded={(url) => set('backgroundImage', url)}
              />
              {draft.backgroundImage && (
                <button
                  type="button"
                  className="btn btn-ghost btn-sm"
                  onClick={() => {
                    set('backgroundImage', null)
                    toast.info('Background image removed. Remember to save changes.')
                  }}
                >
                  Remove Background
                </button>
              )}
            </div>
            {errors.backgroundImage && <p className="field-error" role="alert">{errors.backgroundImage}</p>}
            <ColorField label="Overlay color" value={draft.backgroundOverlay} error={errors.backgroundOverlay} onChange={(value) => set('backgroundOverlay', value)} />
            <SwitchRow
              label="Show setup in hero"
              hint={setupHasImage ? 'Your setup photo behind your name.' : 'Choose a setup photo first.'}
              checked={draft.showSetupInBackground}
              onChange={(on) => set('showSetupInBackground', on)}
              disabled={!setupHasImage}
            />
            <div className="grid grid-2">
              <Slider label="Setup blur" min={0} max={50} value={draft.backgroundBlur} valueText={`${draft.backgroundBlur} px`} disabled={!slidersEnabled} onChange={(value) => set('backgroundBlur', value)} />
              <Slider label="Setup opacity" min={0} max={100} value={draft.backgroundOpacity} valueText={`${draft.backgroundOpacity}%`} disabled={!slidersEnabled} onChange={(value) => set('backgroundOpacity', value)} />
            </div>
          </section>

          <section className="card stack" aria-labelledby="rp-sections-title">
            <h2 id="rp-sections-title" className="card-title">Sections</h2>
            <SectionsEditor
              sections={draft.sections}
              errors={errors}
              onAdd={() => setDraft((d) => ({ ...d, sections: [...d.sections, { key: newKey('s'), name: '' }] }))}
              onRename={renameSection}
              onRemove={removeSection}
            />
          </section>

          <section className="card stack" aria-labelledby="rp-links-title">
            <h2 id="rp-links-title" className="card-title">Links</h2>
            <LinksEditor
              links={draft.links}
              deadLinkIds={editor.deadLinkIds}
              sections={names}
              errors={shownErrors}
              newLink={newLink}
              newLinkErrors={newLinkErrors}
              allowance={allowance}
              adding={saving === 'link'}
              onNewLinkChange={(link) => {
                setNewLink(link)
                setNewLinkErrors({})
              }}
              onAdd={addLink}
              onChange={changeLink}
              onRemove={removeLink}
              onMove={moveLink}
            />
          </section>

          {editor.saved && editor.rigpageSlug && editor.publicUrl && (
            <section className="card stack" aria-labelledby="rp-share-title">
              <h2 id="rp-share-title" className="card-title">Share &amp; Stats</h2>
              <SharePanel slug={editor.rigpageSlug} publicUrl={editor.publicUrl} />
              <StatsPanel />
            </section>
          )}

          <div className="card rp-actions" role="group" aria-label="Save and publish">
            <div className="row rp-actions-top">
              <p className="hint rp-balance">Balance: <strong>{credits(balance)}</strong></p>
              {/* On a phone the preview sits below the whole form: the sticky bar leads there. */}
              <a href="#rp-preview" className="text-link rp-preview-jump">Preview ↓</a>
            </div>
            <div className="row">
              {live ? (
                <a href={`/rig/${editor.rigpageSlug}`} target="_blank" rel="noopener" className="btn btn-ghost">View live page</a>
              ) : (
                <button type="button" className="btn btn-ghost" disabled>View live page</button>
              )}
              <button type="button" className="btn btn-secondary" onClick={() => void saveChanges()} disabled={saving !== null}>
                {saving === 'save' ? 'Saving...' : 'Save Changes'}
              </button>
              {!draft.rigpageEnabled && (
                <button type="button" className="btn btn-primary" onClick={goLive} disabled={!canGoLive || saving !== null}>
                  {saving === 'publish' ? 'Publishing...' : 'Go Live'}
                </button>
              )}
            </div>
          </div>
        </div>

        <aside className="rp-aside" aria-label="Preview" id="rp-preview">
          <PreviewPane request={previewed} behind={!valid} />
          <a href="#rp-form" className="btn btn-secondary rp-preview-back">Back to editing</a>
        </aside>
      </div>

      <CreditConfirmDialog
        open={dialog !== null}
        action={dialog?.action ?? 'publish'}
        cost={dialogCost}
        balance={balance}
        freeLinks={editor.freeLinks}
        linksPerBatch={editor.linksPerBatch}
        pending={saving === 'publish' || saving === 'link'}
        onCancel={() => setDialog(null)}
        onConfirm={() => {
          if (dialog?.action === 'publish') void publish()
          else if (dialog?.action === 'link') void confirmLink(dialog.link)
        }}
      />
    </div>
  )
}
