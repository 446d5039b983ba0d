/**
 * The library every CTE route analyses: the built-in frameworks plus the catalogs imported into the
 * database, and the shipped crosswalk edges plus those analysts added. Each request asks the database for
 * the imported set's ids and hashes and for the digest of the added edges (one small query, which
 * concurrent requests share when it is sent after each of them arrived), so an import or an edge made
 * through any daemon instance is seen by all; the merged library is rebuilt only when either changes.
 * Hot read routes take the revision the org read cache holds instead (`heldLibrary`): imports and edges
 * drop it there and broadcast that they did.
 */
import type { AppContext } from '../../context.js';
import type { Em } from '../../platform/db/database.js';
import { resourceNotFound } from '../../platform/errors.js';
import { type Ready, whenReady } from '../../platform/ready.js';
import { digestOf, loadAnalystEdges } from './analyst-edges.store.js';
import type { Framework } from './framework.types.js';
import { loadStoredFrameworks, readLibraryRevision, type StoredFrameworkRef } from './frameworks.store.js';
import {
  BUILTIN_FRAMEWORK_IDS,
  extendLibrary,
  type FrameworkLibrary,
  loadBuiltinLibrary,
} from './library.js';

export interface CurrentLibrary {
  library: FrameworkLibrary;
  /** Names the library's content, frameworks and edges: equal revisions mean equal libraries. */
  revision: string;
  /**
   * Names the frameworks alone (built in and imported), not the edges: what depends only on requirement
   * texts (search vectors, the embeddings job) can key on it and survive an analyst's edge.
   */
  frameworksRevision: string;
  importedIds: ReadonlySet<string>;
}

const frameworksRevisionOf = (refs: readonly StoredFrameworkRef[]) =>
  `builtin;${refs.map((ref) => `${ref.frameworkId}:${ref.contentHash}`).join(',')}`;
const revisionOf = (refs: readonly StoredFrameworkRef[], edgesDigest: string) =>
  `${frameworksRevisionOf(refs)};edges:${edgesDigest}`;

let current: CurrentLibrary | undefined;
let loading: { revision: string; promise: Promise<CurrentLibrary> } | undefined;

async function loadLibrary(em: Em): Promise<CurrentLibrary> {
  const [stored, added] = await Promise.all([loadStoredFrameworks(em), loadAnalystEdges(em)]);
  const builtin = new Set<string>(BUILTIN_FRAMEWORK_IDS);
  // A stored framework never shadows a built-in one (the import route refuses those ids).
  const imported = stored.filter((row) => !builtin.has(row.frameworkId));
  return {
    library: extendLibrary(loadBuiltinLibrary(), {
      frameworks: imported.map((row) => row.framework),
      edges: added,
    }),
    revision: revisionOf(stored, digestOf(added)),
    frameworksRevision: frameworksRevisionOf(stored),
    importedIds: new Set(imported.map((row) => row.frameworkId)),
  };
}

/** The revision query on the wire, and the one that goes out when it returns. */
let running: Promise<string> | undefined;
let queued: Promise<string> | undefined;

function sendRevisionQuery(em: Em): Promise<string> {
  const sent = readLibraryRevision(em);
  running = sent;
  const settle = () => {
    if (running === sent) running = undefined;
  };
  sent.then(settle, settle);
  return sent;
}

/**
 * The revision as of a moment after the call: concurrent callers share one query, but only one sent after
 * each of them called (the query already on the wire may have read too early), so nobody reads a revision
 * older than its own request. Under load this is one query per round trip instead of one per request.
 * A transaction reads its own snapshot.
 */
export function revisionNow(em: Em): Promise<string> {
  if (em.isInTransaction()) return readLibraryRevision(em);
  if (queued) return queued;
  if (!running) return sendRevisionQuery(em);
  const next = running.then(
    () => undefined,
    () => undefined,
  );
  const waiting = next.then(() => {
    queued = undefined;
    return sendRevisionQuery(em);
  });
  queued = waiting;
  return waiting;
}

/** The current library; rebuilt once when the imported frameworks or the added edges changed. */
export async function currentLibrary(em: Em): Promise<CurrentLibrary> {
  const revision = await revisionNow(em);
  if (current?.revision === revision) return current;
  let entry = loading;
  if (entry?.revision !== revision) {
    const started = { revision, promise: loadLibrary(em) };
    loading = entry = started;
    started.promise
      .then((loaded) => {
        // An older load finishing late must not replace a newer library.
        if (loading === started) current = loaded;
      })
      .catch(() => {})
      .finally(() => {
        if (loading === started) loading = undefined;
      });
  }
  // Content and revision come from one read, so a library is never paired with another's revision.
  return entry.promise;
}

/**
 * The current library without asking the database, when the revision the org read cache holds is the
 * one built last (see `OrgReadCache.libraryRevision`): for hot read routes. Otherwise as `currentLibrary`.
 */
export function heldLibrary(ctx: Pick<AppContext, 'readCache'>, em: Em): Ready<CurrentLibrary> {
  return whenReady(heldRevision(ctx, em), (held) =>
    current?.revision === held ? current : currentLibrary(em),
  );
}

/** The library revision as the org read cache holds it. */
export const heldRevision = (ctx: Pick<AppContext, 'readCache'>, em: Em): Ready<string> =>
  ctx.readCache.libraryRevision(() => revisionNow(em));

export function requireFramework(library: FrameworkLibrary, frameworkId: string): Framework {
  const framework = library.framework(frameworkId);
  if (!framework) throw resourceNotFound('Framework', { frameworkId });
  return framework;
}
