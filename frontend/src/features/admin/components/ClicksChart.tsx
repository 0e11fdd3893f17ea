import { useId } from 'react'
import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from 'recharts'
import { Skeleton } from '@/components/ui/Skeleton'
import { useDailyClicks } from '../api'
import { BRAND, chartSummary, dayLabel, formatCount, type Period } from '../logic'

/**
 * Clicks per UTC day. The drawing is decorative for assistive technology: its summary is
 * the figure's name and a visually hidden table carries every value.
 */
export function ClicksChart({ period }: { period: Period }) {
  const id = useId()
  const { data, error, isLoading } = useDailyClicks(period)
  const days = data ?? []
  return (
    <section className="card stack" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="admin-h2">Clicks Over Time</h2>
      {isLoading && !data ? (
        <Skeleton height={240} />
      ) : error && !data ? (
        <p className="muted">Failed to load clicks.</p>
      ) : days.length === 0 ? (
        <p className="muted">No clicks recorded in this period.</p>
      ) : (
        <figure className="admin-chart" aria-labelledby={`${id}-title`} aria-describedby={`${id}-summary`}>
          <div aria-hidden="true">
            <BarChart accessibilityLayer={false} responsive style={{ width: '100%', height: 240 }} data={days.map((d) => ({ ...d, label: dayLabel(d.day) }))} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
              <CartesianGrid stroke="#2a2a3c" vertical={false} />
              <XAxis dataKey="label" stroke="#a6a6bd" fontSize={12} tickLine={false} minTickGap={16} />
              <YAxis stroke="#a6a6bd" fontSize={12} tickLine={false} allowDecimals={false} />
              <Tooltip
                cursor={{ fill: 'rgb(167 139 250 / 10%)' }}
                contentStyle={{ background: '#13131d', border: '1px solid #3a3a52', borderRadius: 8, color: '#ececf4' }}
                formatter={(value) => [formatCount(Number(value)), 'Clicks']}
              />
              <Bar dataKey="clicks" fill={BRAND.from} radius={[4, 4, 0, 0]} isAnimationActive={false} />
            </BarChart>
          </div>
          <figcaption id={`${id}-summary`} className="hint">{chartSummary(days)}</figcaption>
          <table className="sr-only">
            <caption>Clicks per day</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Clicks</th>
              </tr>
            </thead>
            <tbody>
              {days.map((d) => (
                <tr key={d.day}>
                  <td>{dayLabel(d.day)}</td>
                  <td>{formatCount(d.clicks)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </figure>
      )}
    </section>
  )
}
