import { useId } from 'react'
import { CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts'
import { formatScore } from '@/lib/ratingBands'
import { shortDate } from '@/lib/relativeTime'
import { scoreHistorySummary, type ScorePoint } from '../history'

/**
 * The SetupIQ Scores over time, oldest first. Loaded on its own (recharts is heavy). The
 * drawing is decorative for assistive technology: the summary names the figure and a
 * visually hidden table carries every score.
 */
export default function ScoreHistoryChart({ points }: { points: readonly ScorePoint[] }) {
  const id = useId()
  const data = points.map((p) => ({ ...p, label: shortDate(p.createdAt) }))
  return (
    <figure className="score-history" aria-describedby={`${id}-summary`} data-testid="score-history-chart">
      <div aria-hidden="true">
        <LineChart accessibilityLayer={false} responsive style={{ width: '100%', height: 220 }} data={data} margin={{ top: 8, right: 12, bottom: 0, left: -24 }}>
          <CartesianGrid stroke="#2a2a3c" vertical={false} />
          <XAxis dataKey="label" stroke="#a6a6bd" fontSize={12} tickLine={false} minTickGap={24} />
          <YAxis domain={[0, 10]} ticks={[0, 2, 4, 6, 8, 10]} stroke="#a6a6bd" fontSize={12} tickLine={false} />
          <Tooltip
            contentStyle={{ background: '#13131d', border: '1px solid #3a3a52', borderRadius: 8, color: '#ececf4' }}
            formatter={(value) => [`${formatScore(Number(value))}/10`, 'SetupIQ Score']}
          />
          <Line type="monotone" dataKey="score" stroke="#8b5cf6" strokeWidth={2} dot={{ r: 3, fill: '#8b5cf6' }} isAnimationActive={false} />
        </LineChart>
      </div>
      <figcaption id={`${id}-summary`} className="hint">{scoreHistorySummary(points)}</figcaption>
      <table className="sr-only">
        <caption>SetupIQ Score per analysis, oldest first</caption>
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">Score</th>
          </tr>
        </thead>
        <tbody>
          {points.map((p) => (
            <tr key={p.id}>
              <td>{shortDate(p.createdAt)}</td>
              <td>{formatScore(p.score)}/10</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  )
}
