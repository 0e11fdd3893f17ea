/** What a dropzone accepts (spec 000 §5: the generic dropzone and its messages). */
export interface DropzoneRules {
  /** How many files at once. */
  maxFiles: number
  /** Accepted MIME types, e.g. `image/jpeg`. */
  accept: readonly string[]
  /** Largest accepted file, in bytes. */
  maxBytes: number
}

/** The home page's photo: one JPEG, PNG or WEBP file of at most 10 MB. */
export const SETUP_PHOTO_RULES: DropzoneRules = {
  maxFiles: 1,
  accept: ['image/jpeg', 'image/png', 'image/webp'],
  maxBytes: 10 * 1024 * 1024,
}

/** The generic dropzone messages. */
export const dropzoneMessages = {
  tooMany: (maxFiles: number) => `Maximum ${maxFiles} file(s) allowed`,
  invalidType: (accept: readonly string[]) => `Invalid file type. Accepted: ${accept.join(', ')}`,
  tooLarge: (maxBytes: number) => `File size exceeds ${Math.round(maxBytes / (1024 * 1024))}MB limit`,
}

type FileLike = Pick<File, 'name' | 'type' | 'size'>

/**
 * Checks dropped or picked files against the rules: the accepted files, or the first
 * problem in the order count, type, size.
 */
export function validateDropzoneFiles<F extends FileLike>(files: readonly F[], rules: DropzoneRules): { files: F[]; error: string | null } {
  if (files.length > rules.maxFiles) return { files: [], error: dropzoneMessages.tooMany(rules.maxFiles) }
  for (const file of files) {
    if (!rules.accept.includes(file.type)) return { files: [], error: dropzoneMessages.invalidType(rules.accept) }
    if (file.size > rules.maxBytes) return { files: [], error: dropzoneMessages.tooLarge(rules.maxBytes) }
  }
  return { files: [...files], error: null }
}

/** A file size for people: `512 KB`, `2.4 MB`. */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
}
