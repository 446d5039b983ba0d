/** The pairwise coverage matrix: coloured cells on a terminal, an aligned plain-text grid in pipes. */
import { percent } from '../../api-client/format.js';
import { interactive, renderOnce } from '../output.js';

export interface PairwiseCell {
  from: string;
  to: string;
  coverage: number;
}

function matrix(frameworkIds: readonly string[], cells: readonly PairwiseCell[]) {
  const value = new Map(cells.map((cell) => [`${cell.from}\u001f${cell.to}`, cell.coverage]));
  return frameworkIds.map((from) =>
    frameworkIds.map((to) => (from === to ? undefined : (value.get(`${from}\u001f${to}`) ?? 0))),
  );
}

const CORNER = 'from \\ to';

/** Rows: the framework implemented in full; columns: the framework it covers through the crosswalk. */
export async function printHeatmap(
  frameworkIds: readonly string[],
  cells: readonly PairwiseCell[],
): Promise<void> {
  const rows = matrix(frameworkIds, cells);
  const width = Math.max(7, ...frameworkIds.map((id) => Math.min(id.length, 14)));
  if (interactive(process.stdout)) {
    const { Heatmap } = await import('./heatmap.js');
    await renderOnce(Heatmap, { corner: CORNER, ids: frameworkIds, rows, width });
    return;
  }
  const label = Math.max(CORNER.length, ...frameworkIds.map((id) => id.length));
  const lines = [
    [CORNER.padEnd(label), ...frameworkIds.map((id) => id.slice(0, width).padStart(width))].join(' '),
    ...rows.map((row, index) =>
      [
        frameworkIds[index].padEnd(label),
        ...row.map((value) => (value === undefined ? '-' : percent(value)).padStart(width)),
      ].join(' '),
    ),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}
