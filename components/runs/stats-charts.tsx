'use client';
/**
 * The dashboard's charts (recharts). Children of a chart are listed directly, never inside a Fragment: recharts
 * finds its parts by walking the children.
 */
import { useTranslations } from 'next-intl';
import {
  Bar,
  BarChart,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { useRunFormat } from './run-format';
import type { StatsBucket, WorkflowStats } from './runs-api';

export type DayPoint = { day: string; other: number; successRate: number | null } & StatsBucket;

const HEIGHT = 220;
const axis = { fontSize: 11, fill: '#71717a' };
/** Days with one point between gaps still show: a line alone draws nothing. */
const DOT = { r: 2 };
const grid = <CartesianGrid strokeDasharray="3 3" stroke="#e4e4e7" vertical={false} />;

/** Numbers and words of the charts in the UI's language: day ticks, tooltip titles and counts. */
function useChartText() {
  const t = useTranslations('runs.charts');
  const f = useRunFormat();
  const dayLabel = (d: unknown) => (typeof d === 'string' ? f.longDay(d) : String(d));
  const countOf = (v: unknown) => (typeof v === 'number' ? f.count(v) : String(v));
  return { t, f, dayLabel, countOf };
}

export function RunsPerDayChart({ data }: { data: DayPoint[] }) {
  const { t, f, dayLabel, countOf } = useChartText();
  return (
    <ResponsiveContainer width="100%" height={HEIGHT}>
      <BarChart data={data}>
        {grid}
        <XAxis dataKey="day" tickFormatter={f.shortDay} tick={axis} />
        <YAxis allowDecimals={false} tick={axis} width={36} tickFormatter={f.count} />
        <Tooltip labelFormatter={dayLabel} formatter={countOf} />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        <Bar dataKey="succeeded" stackId="runs" fill="#10b981" name={t('succeeded')} isAnimationActive={false} />
        <Bar dataKey="failed" stackId="runs" fill="#ef4444" name={t('failed')} isAnimationActive={false} />
        <Bar dataKey="other" stackId="runs" fill="#a1a1aa" name={t('other')} isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}

export function SuccessRateChart({ data }: { data: DayPoint[] }) {
  const { t, f, dayLabel } = useChartText();
  return (
    <ResponsiveContainer width="100%" height={HEIGHT}>
      <LineChart data={data}>
        {grid}
        <XAxis dataKey="day" tickFormatter={f.shortDay} tick={axis} />
        <YAxis domain={[0, 1]} tickFormatter={f.axisPercent} tick={axis} width={40} />
        <Tooltip labelFormatter={dayLabel} formatter={(v) => (typeof v === 'number' ? f.percent(v) : String(v))} />
        <Line
          type="monotone"
          dataKey="successRate"
          stroke="#4f46e5"
          strokeWidth={2}
          dot={DOT}
          connectNulls
          name={t('successRate')}
          isAnimationActive={false}
        />
      </LineChart>
    </ResponsiveContainer>
  );
}

export function DurationChart({ data }: { data: DayPoint[] }) {
  const { t, f, dayLabel } = useChartText();
  return (
    <ResponsiveContainer width="100%" height={HEIGHT}>
      <LineChart data={data}>
        {grid}
        <XAxis dataKey="day" tickFormatter={f.shortDay} tick={axis} />
        <YAxis tickFormatter={(v: number) => f.duration(v)} tick={axis} width={64} />
        <Tooltip labelFormatter={dayLabel} formatter={(v) => (typeof v === 'number' ? f.duration(v) : String(v))} />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        <Line
          type="monotone"
          dataKey="p50Ms"
          stroke="#0ea5e9"
          strokeWidth={2}
          dot={DOT}
          connectNulls
          name={t('p50')}
          isAnimationActive={false}
        />
        <Line
          type="monotone"
          dataKey="p95Ms"
          stroke="#f59e0b"
          strokeWidth={2}
          dot={DOT}
          connectNulls
          name={t('p95')}
          isAnimationActive={false}
        />
      </LineChart>
    </ResponsiveContainer>
  );
}

export function TokensChart({ data, withCost }: { data: DayPoint[]; withCost: boolean }) {
  const { t, f, dayLabel } = useChartText();
  return (
    <ResponsiveContainer width="100%" height={HEIGHT}>
      <ComposedChart data={data}>
        {grid}
        <XAxis dataKey="day" tickFormatter={f.shortDay} tick={axis} />
        <YAxis yAxisId="tokens" tick={axis} width={48} tickFormatter={f.count} />
        <YAxis
          yAxisId="cost"
          orientation="right"
          tick={axis}
          width={withCost ? 56 : 0}
          hide={!withCost}
          tickFormatter={f.axisCost}
        />
        <Tooltip
          labelFormatter={dayLabel}
          formatter={(v, _n, item) =>
            typeof v !== 'number' ? String(v) : item.dataKey === 'costUsd' ? f.totalCost(v) : f.count(v)
          }
        />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        <Bar
          yAxisId="tokens"
          dataKey="inputTokens"
          stackId="t"
          fill="#6366f1"
          name={t('inputTokens')}
          isAnimationActive={false}
        />
        <Bar
          yAxisId="tokens"
          dataKey="outputTokens"
          stackId="t"
          fill="#a5b4fc"
          name={t('outputTokens')}
          isAnimationActive={false}
        />
        {withCost && (
          <Line
            yAxisId="cost"
            type="monotone"
            dataKey="costUsd"
            stroke="#059669"
            strokeWidth={2}
            dot={DOT}
            connectNulls
            name={t('cost')}
            isAnimationActive={false}
          />
        )}
      </ComposedChart>
    </ResponsiveContainer>
  );
}

export function NodeP95Chart({ nodes }: { nodes: WorkflowStats['slowestNodes'] }) {
  const { t, f } = useChartText();
  const data = nodes.map((n) => ({ ...n, label: t('nodeLabel', { node: n.nodeId, type: n.type }) }));
  return (
    <ResponsiveContainer width="100%" height={Math.max(120, 28 * data.length + 40)}>
      <BarChart data={data} layout="vertical" margin={{ left: 8 }}>
        <CartesianGrid strokeDasharray="3 3" stroke="#e4e4e7" horizontal={false} />
        <XAxis type="number" tickFormatter={(v: number) => f.duration(v)} tick={axis} />
        <YAxis type="category" dataKey="label" tick={axis} width={140} />
        <Tooltip
          formatter={(v, _n, item) =>
            typeof v === 'number' ? t('overRuns', { duration: f.duration(v), count: item.payload.runs }) : String(v)
          }
        />
        <Bar dataKey="p95Ms" fill="#f59e0b" name={t('p95')} isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}
