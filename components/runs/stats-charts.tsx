'use client';
/**
 * The dashboard's charts (recharts). Children of a chart are listed directly, never inside a Fragment: recharts
 * finds its parts by walking the children.
 */
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
import { formatDuration } from '@/components/ui/status';
import type { StatsBucket, WorkflowStats } from './runs-api';

export type DayPoint = { day: string; other: number; successRate: number | null } & StatsBucket;

const HEIGHT = 220;
const axis = { fontSize: 11, fill: '#71717a' };
const shortDay = (d: string) => d.slice(5);
/** Days with one point between gaps still show: a line alone draws nothing. */
const DOT = { r: 2 };
const grid = <CartesianGrid strokeDasharray="3 3" stroke="#e4e4e7" vertical={false} />;

export function RunsPerDayChart({ data }: { data: DayPoint[] }) {
  return (
    <ResponsiveContainer width="100%" height={HEIGHT}>
      <BarChart data={data}>
        {grid}
        <XAxis dataKey="day" tickFormatter={shortDay} tick={axis} />
        <YAxis allowDecimals={false} tick={axis} width={36} />
        <Tooltip />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        <Bar dataKey="succeeded" stackId="runs" fill="#10b981" name="succeeded" isAnimationActive={false} />
        <Bar dataKey="failed" stackId="runs" fill="#ef4444" name="failed" isAnimationActive={false} />
        <Bar dataKey="other" stackId="runs" fill="#a1a1aa" name="other" isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}

export function SuccessRateChart({ data }: { data: DayPoint[] }) {
  return (
    <ResponsiveContainer width="100%" height={HEIGHT}>
      <LineChart data={data}>
        {grid}
        <XAxis dataKey="day" tickFormatter={shortDay} tick={axis} />
        <YAxis domain={[0, 1]} tickFormatter={(v: number) => `${Math.round(v * 100)}%`} tick={axis} width={40} />
        <Tooltip formatter={(v) => (typeof v === 'number' ? `${(v * 100).toFixed(1)} %` : String(v))} />
        <Line
          type="monotone"
          dataKey="successRate"
          stroke="#4f46e5"
          strokeWidth={2}
          dot={DOT}
          connectNulls
          name="success rate"
          isAnimationActive={false}
        />
      </LineChart>
    </ResponsiveContainer>
  );
}

export function DurationChart({ data }: { data: DayPoint[] }) {
  return (
    <ResponsiveContainer width="100%" height={HEIGHT}>
      <LineChart data={data}>
        {grid}
        <XAxis dataKey="day" tickFormatter={shortDay} tick={axis} />
        <YAxis tickFormatter={(v: number) => formatDuration(v)} tick={axis} width={64} />
        <Tooltip formatter={(v) => (typeof v === 'number' ? formatDuration(v) : String(v))} />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        <Line
          type="monotone"
          dataKey="p50Ms"
          stroke="#0ea5e9"
          strokeWidth={2}
          dot={DOT}
          connectNulls
          name="p50"
          isAnimationActive={false}
        />
        <Line
          type="monotone"
          dataKey="p95Ms"
          stroke="#f59e0b"
          strokeWidth={2}
          dot={DOT}
          connectNulls
          name="p95"
          isAnimationActive={false}
        />
      </LineChart>
    </ResponsiveContainer>
  );
}

export function TokensChart({ data, withCost }: { data: DayPoint[]; withCost: boolean }) {
  return (
    <ResponsiveContainer width="100%" height={HEIGHT}>
      <ComposedChart data={data}>
        {grid}
        <XAxis dataKey="day" tickFormatter={shortDay} tick={axis} />
        <YAxis yAxisId="tokens" tick={axis} width={48} />
        <YAxis
          yAxisId="cost"
          orientation="right"
          tick={axis}
          width={withCost ? 56 : 0}
          hide={!withCost}
          tickFormatter={(v: number) => `$${v.toFixed(2)}`}
        />
        <Tooltip />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        <Bar
          yAxisId="tokens"
          dataKey="inputTokens"
          stackId="t"
          fill="#6366f1"
          name="input tokens"
          isAnimationActive={false}
        />
        <Bar
          yAxisId="tokens"
          dataKey="outputTokens"
          stackId="t"
          fill="#a5b4fc"
          name="output tokens"
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
            name="cost (USD)"
            isAnimationActive={false}
          />
        )}
      </ComposedChart>
    </ResponsiveContainer>
  );
}

export function NodeP95Chart({ nodes }: { nodes: WorkflowStats['slowestNodes'] }) {
  const data = nodes.map((n) => ({ ...n, label: `${n.nodeId} (${n.type})` }));
  return (
    <ResponsiveContainer width="100%" height={Math.max(120, 28 * data.length + 40)}>
      <BarChart data={data} layout="vertical" margin={{ left: 8 }}>
        <CartesianGrid strokeDasharray="3 3" stroke="#e4e4e7" horizontal={false} />
        <XAxis type="number" tickFormatter={(v: number) => formatDuration(v)} tick={axis} />
        <YAxis type="category" dataKey="label" tick={axis} width={140} />
        <Tooltip
          formatter={(v, _n, item) =>
            typeof v === 'number' ? `${formatDuration(v)} over ${item.payload.runs} runs` : String(v)
          }
        />
        <Bar dataKey="p95Ms" fill="#f59e0b" name="p95" isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}
