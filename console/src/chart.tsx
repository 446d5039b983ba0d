import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { HistoryPoint } from './api';

/** The score over time (uPlot on a canvas), with the same points as a table for screen readers. */
export function HistoryChart({ points, title }: { points: HistoryPoint[]; title: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const xs = points.map((point) => Date.parse(point.periodStart) / 1000);
    const ys = points.map((point) => point.score);
    const plot = new uPlot(
      {
        width: Math.max(280, element.clientWidth),
        height: 220,
        scales: { y: { range: [0, 100] } },
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        axes: [{}, { values: (_u, ticks) => ticks.map((tick) => `${tick}%`) }],
        series: [
          {},
          {
            label: 'Score',
            stroke: '#1d5fbf',
            width: 2,
            fill: 'rgba(29,95,191,0.12)',
            spanGaps: true,
            points: { show: true, size: 5 },
          },
        ],
      },
      [xs, ys as number[]],
      element,
    );
    const resize = new ResizeObserver(() =>
      plot.setSize({ width: Math.max(280, element.clientWidth), height: 220 }),
    );
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [points]);
  return (
    <figure className="chart">
      <div ref={box} role="img" aria-label={`${title}: line chart of ${points.length} points`} />
      <details>
        <summary>Data table</summary>
        <table>
          <caption className="sr-only">{title}</caption>
          <thead>
            <tr>
              <th scope="col">Period</th>
              <th scope="col">Score</th>
            </tr>
          </thead>
          <tbody>
            {points.map((point) => (
              <tr key={point.periodStart}>
                <td>{point.periodStart.slice(0, 10)}</td>
                <td>{point.score === null ? '—' : `${point.score.toFixed(1)}%`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

/**
 * Scores at two instants side by side, one pair of bars per item (uPlot on a canvas): a management review's
 * score of every framework at the start and the end of its period. The page shows the same figures as a table.
 */
export function ScoreChangeChart({
  items,
  title,
}: {
  items: { id: string; from: number | null; to: number | null }[];
  title: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element || items.length === 0) return;
    const bars = uPlot.paths.bars;
    const xs = items.map((_, index) => index);
    const height = 200;
    const plot = new uPlot(
      {
        width: Math.max(280, element.clientWidth),
        height,
        scales: { x: { time: false, range: [-0.5, items.length - 0.5] }, y: { range: [0, 100] } },
        legend: { show: false },
        cursor: { show: false },
        axes: [
          {
            splits: () => xs,
            values: (_u, ticks) => ticks.map((tick) => items[tick]?.id ?? ''),
            grid: { show: false },
          },
          { values: (_u, ticks) => ticks.map((tick) => `${tick}%`) },
        ],
        series: [
          {},
          {
            label: 'start of period',
            fill: '#9aa5b1',
            stroke: '#6b7683',
            paths: bars?.({ size: [0.35, 40], align: -1 }),
            points: { show: false },
          },
          {
            label: 'end of period',
            fill: '#1d5fbf',
            stroke: '#1d5fbf',
            paths: bars?.({ size: [0.35, 40], align: 1 }),
            points: { show: false },
          },
        ],
      },
      [xs, items.map((item) => item.from) as number[], items.map((item) => item.to) as number[]],
      element,
    );
    const resize = new ResizeObserver(() =>
      plot.setSize({ width: Math.max(280, element.clientWidth), height }),
    );
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [items]);
  return (
    <figure className="chart">
      <div
        ref={box}
        role="img"
        aria-label={`${title}: bars of ${items.length} pairs, ${items
          .map((item) => `${item.id} ${pctText(item.from)} to ${pctText(item.to)}`)
          .join('; ')}`}
      />
      <figcaption className="legend" aria-hidden="true">
        <span className="swatch swatch-from" /> start of period <span className="swatch swatch-to" /> end of
        period
      </figcaption>
    </figure>
  );
}

const pctText = (value: number | null) => (value === null ? 'no score' : `${value.toFixed(1)}%`);
