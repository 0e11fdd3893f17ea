import { Skeleton } from '@/components/ui/Skeleton'

export function PageSkeleton({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="container stack page-skeleton" role="status" aria-busy="true">
      <span className="sr-only">{label}</span>
      <Skeleton height={40} width="50%" />
      <Skeleton height={18} />
      <Skeleton height={18} width="80%" />
      <Skeleton height={200} />
    </div>
  )
}
