// Apart from the schemas so that the home form shows them without loading zod.
export const MIN_DESCRIPTION = 20
export const MAX_DESCRIPTION = 5000
