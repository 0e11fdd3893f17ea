import { Field } from '@/components/ui/Field'
import { SOCIAL_FIELDS, SOCIAL_PLATFORMS } from '../draft'
import type { RigpageEditorForm } from '../useRigpageEditor'
import { EditorCard } from './EditorCard'

/** The editor's "Social Links" card: one field a platform; a web address gets its `https://` on leaving the field. */
export function SocialLinksSection({ form: { errors, register, addScheme } }: { form: Pick<RigpageEditorForm, 'errors' | 'register' | 'addScheme'> }) {
  return (
    <EditorCard id="rp-social" title="Social Links">
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
    </EditorCard>
  )
}
