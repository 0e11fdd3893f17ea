import { zodResolver } from '@hookform/resolvers/zod'
import { useEffect, useMemo, useRef, useState, type FocusEvent } from 'react'
import { useForm, useWatch, type FieldPath, type FieldPathValue } from 'react-hook-form'
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
  radiusLabel, removeSection, renameSection, saveCost, sectionNames, toRequest, withScheme,
  type ConfigRequest, type Draft, type DraftLink, type Editor, type ThemePreset,
} from '../draft'
import { checkRequest, draftSchema, newLinkFormSchema, rigpageConfigSchema, type NewLink } from '../schemas'
import { ColorField, SelectField, Slider, SwitchRow } from './Controls'
import { CreditConfirmDialog, type PaidAction } from './CreditConfirmDialog'
import { ImageUpload } from './ImageUpload'
import { LinksEditor } from './LinksEditor'
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

/** Why a visitor who opened the editor is asked to sign in. */
const RIGPAGE_SIGN_IN = 'Log in or create a free account to build your RigPage: one public link for your setup, your gear and your socials.'

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
      openAuth('login', RIGPAGE_SIGN_IN)
    }
  }, [state.status, authDialog.open, openAuth, navigate])

  if (state.status === 'unauthenticated') {
    return (
      <div className="container state">
        <div className="state-icon" aria-hidden="true"><LockKeyhole aria-hidden="true" /></div>
        <h1>Create Your Link in Bio</h1>
        <p className="muted">Log in to build your RigPage.</p>
        <button type="button" className="btn btn-primary" onClick={() => openAuth('login', RIGPAGE_SIGN_IN)}>Log In</button>
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

type Action = 'save' | PaidAction
type Dialog = { action: 'publish' } | { action: 'link'; link: DraftLink } | null

/** A failed save as the toast says it, naming the field: "Link 2 URL: Please enter a valid URL." */
function failureOf(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.issues[0]) return `${fieldName(error.issues[0].path)}: ${error.issues[0].message}`
  return messageOf(error, fallback)
}

/** The check's first problem with a draft, naming its field: "Page URL: URL must be at least 3 characters." */
function firstProblem(draft: Draft): string {
  const [path, message] = Object.entries(checkRequest(toRequest(draft)))[0] ?? []
  return path === undefined ? '' : `${fieldName(path)}: ${message}`
}

/**
 * The editor. The draft is the values of a react-hook-form form checked by `draftSchema`:
 * text fields are registered, the other controls `set` their value, and each field is
 * checked as it changes. A save goes through `handleSubmit`, which checks the whole draft;
 * the server's answer then becomes the form's values (`reset`), or its refusal goes onto the
 * fields (`setError`). The preview follows what a save would send, while that passes the
 * check. "Add a link" is a form of its own; a paid link and the first Go Live wait for the
 * credit dialog (`dialog`: UI state, as is `action`, the busy button).
 */
export function EditorForm({ editor }: { editor: Editor }) {
  const { user } = useAuth()
  const save = useSaveConfig()
  // Read once: the server's later answers reach the form through `reset`.
  const [initial] = useState(() => draftFromEditor(editor))
  const { register, control, handleSubmit, trigger, watch, getValues, setValue, reset, setError, formState } = useForm<Draft, unknown, ConfigRequest>({
    resolver: zodResolver(draftSchema),
    mode: 'onChange',
    defaultValues: initial,
    // Focus stays on the button pressed: the toast names the field.
    shouldFocusError: false,
  })
  const newLink = useForm<NewLink>({ resolver: zodResolver(newLinkFormSchema), defaultValues: { label: '', url: '' } })
  const { errors, isSubmitting } = formState
  // The action being submitted, for its button's words ("Saving...", "Publishing...", "Adding...").
  const [action, setAction] = useState<Action>('save')
  const [dialog, setDialog] = useState<Dialog>(null)

  const draft = watch()
  // What a save would send: a new object only when that changes.
  const request = useWatch({ control, compute: toRequest })
  // The preview follows the last draft that passes the check: no request per keystroke of
  // an address being typed, and no refusal to show. Checked here, as the form's own verdict
  // (`isValid`) comes a moment after the values it is about.
  const valid = useMemo(() => rigpageConfigSchema.safeParse(request).success, [request])
  const [previewed, setPreviewed] = useState(request)
  if (valid && previewed !== request) setPreviewed(request)
  const balance = user?.credits ?? editor.credits
  const setup = editor.setups.find((s) => s.id === draft.rigpageSetupId) ?? null
  const canGoLive = request.rigpageSlug != null && request.rigpageSetupId != null
  // Private pages keep the address the server has (the specification locks it); a page
  // without one yet takes it as it is typed, not locked after its first valid characters.
  const slugLocked = !draft.rigpageEnabled && Boolean(editor.rigpageSlug?.trim())
  const live = editor.saved && editor.rigpageEnabled && editor.rigpageSlug

  /** A control's new value, checked at once (a server error on the field gives way). */
  const set = <Name extends FieldPath<Draft>>(name: Name, value: FieldPathValue<Draft, Name>) => setValue(name, value, { shouldValidate: true })

  /** The fields a rule of draft.ts changed (it gives the whole draft back), set and checked. */
  const apply = (next: Draft) => {
    const current = getValues()
    for (const name of Object.keys(next) as (keyof Draft)[]) {
      if (next[name] !== current[name]) set(name, next[name])
    }
  }

  /** Leaving a web address field adds the `https://` it was typed without. */
  const addScheme = (name: FieldPath<Draft>) => ({
    onBlur: (event: FocusEvent<HTMLInputElement>) => {
      if (withScheme(event.target.value) !== event.target.value) set(name, withScheme(event.target.value))
    },
  })

  /** Saves `next` (checked); the form then holds what the server saved, or its refusal on the fields. */
  const persist = async (next: Draft): Promise<SaveResponse> => {
    try {
      const saved = await save(toRequest(next), saveCost({ enabled: next.rigpageEnabled, linkCount: next.links.length }, editor))
      reset(withKeysOf(next, draftFromEditor(saved)))
      return saved
    } catch (error) {
      for (const [path, message] of Object.entries(fieldErrorsOf(error))) setError(path as FieldPath<Draft>, { type: 'server', message })
      throw error
    }
  }

  /** A paid action's draft that fails the check: the toast names the first problem. */
  const refuse = () => toast.error(firstProblem(getValues()))

  /** Asks for the credits once the whole draft passes the check (a paid action saves the page). */
  const askCredits = async (next: Exclude<Dialog, null>) => {
    if (await trigger()) setDialog(next)
    else refuse()
  }

  const saveChanges = () => {
    setAction('save')
    return handleSubmit(
      async () => {
        try {
          await persist(getValues())
          toast.success('Changes saved!')
        } catch (error) {
          toast.error(`Failed to save: ${failureOf(error, 'An unknown error occurred.')}`)
        }
      },
      () => toast.error(`Failed to save: ${firstProblem(getValues())}`),
    )()
  }

  const publish = () => {
    setAction('publish')
    return handleSubmit(async () => {
      try {
        await persist({ ...getValues(), rigpageEnabled: true })
        toast.success('Your RigPage is now live! 🎉')
      } catch (error) {
        toast.error(messageOf(error, 'Failed to publish RigPage'))
      }
      setDialog(null)
    }, refuse)()
  }

  const goLive = () => {
    if (!canGoLive) {
      if (request.rigpageSlug == null) setError('rigpageSlug', { type: 'required', message: 'URL must be at least 3 characters.' })
      if (request.rigpageSetupId == null) setError('rigpageSetupId', { type: 'required', message: 'Please choose one of your setups.' })
      toast.error(GO_LIVE_NEEDS)
      return
    }
    if (saveCost({ enabled: true, linkCount: draft.links.length }, editor) > 0) void askCredits({ action: 'publish' })
    else void publish()
  }

  const togglePublic = (on: boolean) => {
    if (on && !editor.everPublished) goLive()
    else set('rigpageEnabled', on)
  }

  const addLink = newLink.handleSubmit(async ({ label, url }) => {
    const link: DraftLink = { key: newKey('l'), id: null, label, url, section: null, imageUrl: null, enabled: true }
    const links = getValues('links')
    if (addLinkCosts(links.length, editor.paidLinkBatches, editor.freeLinks, editor.linksPerBatch)) {
      await askCredits({ action: 'link', link })
      return
    }
    // The new link passed its own check: the other rows' errors stand.
    setValue('links', [...links, link])
    newLink.reset()
  })

  const confirmLink = (link: DraftLink) => {
    setAction('link')
    return handleSubmit(async () => {
      try {
        const next = getValues()
        const saved = await persist({ ...next, links: [...next.links, link] })
        newLink.reset()
        toast.success(saved.charged.linkBatches > 0 ? `Link added! ${credits(saved.charged.linkBatches)} deducted.` : 'Link added!')
      } catch (error) {
        toast.error(messageOf(error, 'Failed to add link'))
      }
      setDialog(null)
    }, refuse)()
  }

  // An empty section has nothing to check: the other rows' errors stand.
  const addSection = () => setValue('sections', [...getValues('sections'), { key: newKey('s'), name: '' }])

  const chooseTheme = (theme: ThemePreset) => {
    apply(applyTheme(getValues(), theme))
    toast.success(`Theme "${theme.name}" applied with preset customizations!`)
  }

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
              disabled={isSubmitting}
            />
            {/* Locked by the input's own `disabled`: register's option would make the value undefined, and Go Live sends it. */}
            <Field
              label="Page URL"
              maxLength={30}
              autoComplete="off"
              spellCheck={false}
              disabled={slugLocked}
              error={errors.rigpageSlug?.message}
              hint={`${originOf(editor.publicUrl)}/rig/${draft.rigpageSlug.trim() || 'your-name'}${slugLocked ? ' · Make your page public to change it.' : ''}`}
              {...register('rigpageSlug')}
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
            <SetupPicker setups={editor.setups} value={draft.rigpageSetupId} onChange={(id) => set('rigpageSetupId', id)} error={errors.rigpageSetupId?.message} />
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
                {errors.rigpageAvatar && <p className="field-error" role="alert">{errors.rigpageAvatar.message}</p>}
              </div>
            </div>
            <Field
              label="Tagline"
              maxLength={TAGLINE_MAX}
              placeholder="e.g. FPS streamer & RGB addict"
              error={errors.rigpageTagline?.message}
              hint={`${draft.rigpageTagline.length}/${TAGLINE_MAX}`}
              {...register('rigpageTagline')}
            />
            <div className="stack rp-bio">
              <TextAreaField
                label="Bio"
                rows={3}
                maxLength={BIO_MAX}
                placeholder="A few words about you and your setup"
                error={errors.rigpageBio?.message}
                {...register('rigpageBio')}
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
                  error={errors.rigpageSocialLinks?.[platform]?.message}
                  {...register(`rigpageSocialLinks.${platform}`, platform === 'email' ? undefined : addScheme(`rigpageSocialLinks.${platform}`))}
                />
              ))}
            </div>
          </section>

          <section className="card stack" aria-labelledby="rp-style-title">
            <h2 id="rp-style-title" className="card-title">Style</h2>
            <div className="grid grid-2">
              <ColorField label="Highlight color" value={draft.rigpageHighlightColor} error={errors.rigpageHighlightColor?.message} onChange={(value) => set('rigpageHighlightColor', value)} />
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
            {errors.backgroundImage && <p className="field-error" role="alert">{errors.backgroundImage.message}</p>}
            <ColorField label="Overlay color" value={draft.backgroundOverlay} error={errors.backgroundOverlay?.message} onChange={(value) => set('backgroundOverlay', value)} />
            <SwitchRow
              label="Show setup in hero"
              hint={setupHasImage ? 'Your setup photo behind your name.' : 'Choose a setup photo first.'}
              checked={draft.showSetupInBackground}
              onChange={(on) => set('showSetupInBackground', on)}
              disabled={!setupHasImage}
            />
            <SwitchRow
              label="My gear"
              hint="The gear listed on your showcased setup's community post, with its shop links."
              checked={draft.showGear}
              onChange={(on) => set('showGear', on)}
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
              errors={errors.sections}
              onAdd={addSection}
              onRename={(key, name) => apply(renameSection(getValues(), key, name))}
              onRemove={(key) => apply(removeSection(getValues(), key))}
            />
          </section>

          <section className="card stack" aria-labelledby="rp-links-title">
            <h2 id="rp-links-title" className="card-title">Links</h2>
            <LinksEditor
              links={draft.links}
              deadLinkIds={editor.deadLinkIds}
              sections={sectionNames(draft.sections)}
              errors={errors.links}
              newLink={newLink}
              allowance={allowance}
              adding={isSubmitting && action === 'link'}
              onAdd={addLink}
              onChange={(index, field: keyof DraftLink, value: DraftLink[keyof DraftLink]) => set(`links.${index}.${field}`, value)}
              onRemove={(index) => set('links', getValues('links').filter((_, i) => i !== index))}
              onMove={(from, to) => set('links', moveItem(getValues('links'), from, to))}
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
              <button type="button" className="btn btn-secondary" onClick={() => void saveChanges()} disabled={isSubmitting}>
                {isSubmitting && action === 'save' ? 'Saving...' : 'Save Changes'}
              </button>
              {!draft.rigpageEnabled && (
                <button type="button" className="btn btn-primary" onClick={goLive} disabled={!canGoLive || isSubmitting}>
                  {isSubmitting && action === 'publish' ? 'Publishing...' : 'Go Live'}
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
        pending={isSubmitting}
        onCancel={() => setDialog(null)}
        onConfirm={() => {
          if (dialog?.action === 'publish') void publish()
          else if (dialog?.action === 'link') void confirmLink(dialog.link)
        }}
      />
    </div>
  )
}
