import { exportPath } from '../../../src/clients/api-client/paths.js';
import type { Session } from '../ui';

/** An export (`soa` or `oscal`) as the raw response, to be saved as a file. */
export const fetchExport = (session: Session, kind: 'soa' | 'oscal', query: Record<string, string>) =>
  session.api.raw('GET', exportPath(session.orgId, kind), { query });
