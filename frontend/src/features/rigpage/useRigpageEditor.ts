import { zodResolver } from '@hookform/resolvers/zod'
import { useMemo, useState, type FocusEvent } from 'react'
import { useForm, useWatch, type FieldPath, type FieldPathValue } from 'react-hook-form'
import { ApiError, messageOf } from '@/api/client'
import { useAuth } from '@/lib/auth'
import { plural } from '@/lib/plural'
import { toast } from '@/lib/toast'
import { useSaveConfig, type SaveResponse } from './api'
import {
  addLinkCosts, applyTheme, credits, draftFromEditor, fieldErrorsOf, fieldName, linkBatches, moveItem, newKey,
  removeSection, renameSection, saveCost, toRequest, withScheme,
  type ConfigRequest, type Draft, type DraftLink, type Editor, type ThemePreset,
} from './draft'
import { checkRequest, draftSchema, newLinkFormSchema, rigpageConfigSchema, type NewLink } from './schemas'

export const GO_LIVE_NEEDS = 'Going live needs a page URL (slug) and a selected setup.'

/** The credit dialog's errand: the first Go Live, or a link that opens a paid batch. */
export type Dialog = { action: 'publish' } | { action: 'link'; link: DraftLink } | null
/** The action being submitted, for its button's words ("Saving...", "Publishing...", "Adding..."). */
type Action = 'save' | Exclude<Dialog, null>['action']

/** Keys of the old draft kept for the same rows of the saved one (no remounting after a save). */
function withKeysOf(previous: Draft, next: Draft): Draft {
  return {
    ...next,
    links: next.links.map((link, i) => ({ ...link, key: previous.links[i]?.key ?? link.key })),
    sections: next.sections.map((section, i) => ({ ...section, key: previous.sections[i]?.key ?? section.key })),
  }
}

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

/** What `useRigpageEditor` gives the editor's sections. */
export type RigpageEditorForm = ReturnType<typeof useRigpageEditor>

/**
 * The RigPage editor's state and actions (spec §4, §5, §8), for the page as `editor` (the
 * server's answer) has it. The draft is the values of a react-hook-form form checked by
 * `draftSchema`: text fields are registered, the other controls `set` their value, and each
 * field is checked as it changes. A save goes through `handleSubmit`, which checks the whole
 * draft; the server's answer then becomes the form's values (`reset`), or its refusal goes
 * onto the fields (`setError`). The preview follows what a save would send, while that
 * passes the check. "Add a link" is a form of its own; a paid link and the first Go Live
 * wait for the credit dialog (`dialog`: UI state, as is `action`, the busy button).
 */
export function useRigpageEditor(editor: Editor) {
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
  const live = Boolean(editor.saved && editor.rigpageEnabled && editor.rigpageSlug)

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

  const linkCount = draft.links.length
  const nextLinkCosts = addLinkCosts(linkCount, editor.paidLinkBatches, editor.freeLinks, editor.linksPerBatch)
  const setupHasImage = setup !== null && Boolean(setup.inputData)

  return {
    editor,
    draft,
    errors,
    register,
    set,
    addScheme,
    /** The request the preview shows, and whether the draft has moved on from it (it fails the check). */
    previewed,
    behind: !valid,
    balance,
    canGoLive,
    slugLocked,
    live,
    setupHasImage,
    slidersEnabled: setupHasImage && draft.showSetupInBackground,
    isSubmitting,
    /** The button that shows it is busy: only the one pressed. */
    busy: (which: Action) => isSubmitting && action === which,
    /** A hint on what the next link costs. */
    allowance:
      linkCount < editor.freeLinks
        ? `${linkCount} of ${plural(editor.freeLinks, 'free link')} used.`
        : nextLinkCosts
          ? `The next link unlocks ${editor.linksPerBatch} more for 1 credit.`
          : `${plural(linkCount, 'link')}; ${linkBatches(linkCount, editor.freeLinks, editor.linksPerBatch) * editor.linksPerBatch + editor.freeLinks - linkCount} more before the next credit.`,
    dialog,
    dialogCost:
      dialog?.action === 'publish'
        ? saveCost({ enabled: true, linkCount }, editor)
        : dialog?.action === 'link'
          ? saveCost({ enabled: draft.rigpageEnabled, linkCount: linkCount + 1 }, editor)
          : 0,
    cancelDialog: () => setDialog(null),
    confirmDialog: () => {
      if (dialog?.action === 'publish') void publish()
      else if (dialog?.action === 'link') void confirmLink(dialog.link)
    },
    saveChanges,
    goLive,
    togglePublic,
    chooseTheme: (theme: ThemePreset) => {
      apply(applyTheme(getValues(), theme))
      toast.success(`Theme "${theme.name}" applied with preset customizations!`)
    },
    // An empty section has nothing to check: the other rows' errors stand.
    addSection: () => setValue('sections', [...getValues('sections'), { key: newKey('s'), name: '' }]),
    renameSection: (key: string, name: string) => apply(renameSection(getValues(), key, name)),
    removeSection: (key: string) => apply(removeSection(getValues(), key)),
    newLink,
    addLink,
    changeLink: (index: number, field: keyof DraftLink, value: DraftLink[keyof DraftLink]) => set(`links.${index}.${field}`, value),
    removeLink: (index: number) => set('links', getValues('links').filter((_, i) => i !== index)),
    moveLink: (from: number, to: number) => set('links', moveItem(getValues('links'), from, to)),
  }
}
