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
