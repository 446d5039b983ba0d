import { closest } from '../../../shared/closest.js';
import { type ApiClient, ApiError } from '../../api-client/client.js';
import { snapshotPath } from '../../api-client/paths.js';
import type { SnapshotList } from '../../api-client/types.js';
import { CommandRefusedError } from '../cli.js';

/**
 * The id of the snapshot a person names: by its label (the newest snapshot with that label), else by its
 * id. Neither: refused (exit 1) with the nearest label, "did you mean release 1.4?".
 */
export async function resolveSnapshot(client: ApiClient, orgId: string, ref: string): Promise<string> {
  const labels: string[] = [];
  for (let offset = 0; ; offset += 200) {
    const page = await client.get<SnapshotList>(snapshotPath(orgId), { limit: 200, offset });
    const found = page.snapshots.find((snapshot) => snapshot.label === ref);
    if (found) return found.snapshotId;
    labels.push(...page.snapshots.map((snapshot) => snapshot.label));
    if (page.snapshots.length === 0 || offset + page.snapshots.length >= page.total) break;
  }
  try {
    await client.get(snapshotPath(orgId, ref));
    return ref;
  } catch (error) {
    if (!(error instanceof ApiError && (error.status === 404 || error.status === 400))) throw error;
  }
  const near = closest(ref, labels);
  throw new CommandRefusedError(
    `no snapshot labelled "${ref}" (nor with that id) in ${orgId}` +
      (near === undefined ? '' : ` — did you mean "${near}"?`) +
      (labels.length ? '' : ': it has no snapshots yet (comply snapshot create <label>)'),
  );
}
