import { useId } from 'react'
import { CartesianGrid, ComposedChart, Line, Scatter, Tooltip, XAxis, YAxis } from 'recharts'
import { formatScore } from '@/lib/ratingBands'
import { shortDate } from '@/lib/relativeTime'
import { dayTicks, scoreHistorySummary, type LinkedPoint, type ScorePoint } from '../history'

/** The colours of the setups' lines, in turn (the chart's palette of DESIGN.md). */
const LINE_COLOURS = ['#8b5cf6', '#22d3ee', '#f59e0b', '#10b981', '#f472b6'] as const

/**
 * The SetupIQ Scores over time, oldest first: each re-rated setup (a chain of re-ratings) is
 * one line, every other analysis a point. Loaded on its own (recharts is heavy). The drawing
 * is decorative for assistive technology: the summary names the figure and a visually hidden
 * table carries every score.
 */
export default function ScoreHistoryChart({
  points,
  chains = [],
  singles = points.map((p) => ({ ...p, previousId: null })),
}: {
  points: readonly ScorePoint[]
  chains?: readonly (readonly LinkedPoint[])[]
  singles?: readonly LinkedPoint[]
}) {
  const id = useId()
  const at = (p: ScorePoint) => ({ ...p, time: Date.parse(p.createdAt) })
  const times = points.map((p) => Date.parse(p.createdAt))
  const [first, last] = [Math.min(...times), Math.max(...times)]
  // A single day still gets a little width, so its point is not on the axis's edge.
  const pad = Math.max((last - first) * 0.04, 12 * 3600 * 1000)
  return (
    <figure className="score-history" aria-describedby={`${id}-summary`} data-testid="score-history-chart">
      <div aria-hidden="true">
        <ComposedChart accessibilityLayer={false} responsive style={{ width: '100%', height: 220 }} margin={{ top: 8, right: 12, bottom: 0, left: -24 }}>
          <CartesianGrid stroke="#2a2a3c" vertical={false} />
          <XAxis
            dataKey="time"
            type="number"
            scale="time"
            domain={[first - pad, last + pad]}
            ticks={dayTicks(first, last)}
            tickFormatter={(time: number) => shortDate(new Date(time).toISOString())}
            stroke="#a6a6bd"
            fontSize={12}
            tickLine={false}
            minTickGap={24}
            allowDuplicatedCategory={false}
          />
          <YAxis dataKey="score" domain={[0, 10]} ticks={[0, 2, 4, 6, 8, 10]} stroke="#a6a6bd" fontSize={12} tickLine={false} />
          <Tooltip
            contentStyle={{ background: '#13131d', border: '1px solid #3a3a52', borderRadius: 8, color: '#ececf4' }}
            labelFormatter={(time) => shortDate(new Date(Number(time)).toISOString())}
            formatter={(value) => [`${formatScore(Number(value))}/10`, 'SetupIQ Score']}
          />
          {chains.map((chain, i) => {
            const colour = LINE_COLOURS[i % LINE_COLOURS.length]
            return (
              <Line
                key={chain.map((p) => p.id).join('-')}
                data={chain.map(at)}
                dataKey="score"
                type="monotone"
                stroke={colour}
                strokeWidth={2}
                dot={{ r: 3, fill: colour }}
                isAnimationActive={false}
              />
            )
          })}
          {singles.length > 0 && <Scatter data={singles.map(at)} dataKey="score" fill="#a6a6bd" isAnimationActive={false} />}
        </ComposedChart>
      </div>
      <figcaption id={`${id}-summary`} className="hint">
        {scoreHistorySummary(points)}
        {chains.length > 0 && `; ${chains.length === 1 ? 'one setup' : `${chains.length} setups`} re-rated, each a line`}
      </figcaption>
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
