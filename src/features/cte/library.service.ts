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
import { type Em, perDatabase } from '../../platform/db/database.js';
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

/** One database's library as last built, the build under way, and its revision queries (`perDatabase`). */
class LibraryTracker {
  current: CurrentLibrary | undefined;
  private loading: { revision: string; promise: Promise<CurrentLibrary> } | undefined;
  /** The revision query on the wire, and the one that goes out when it returns. */
  private running: Promise<string> | undefined;
  private queued: Promise<string> | undefined;

  private sendRevisionQuery(em: Em): Promise<string> {
    const sent = readLibraryRevision(em);
    this.running = sent;
    const settle = () => {
      if (this.running === sent) this.running = undefined;
    };
    sent.then(settle, settle);
    return sent;
  }

  /** See `revisionNow`. */
  revisionNow(em: Em): Promise<string> {
    if (em.isInTransaction()) return readLibraryRevision(em);
    if (this.queued) return this.queued;
    if (!this.running) return this.sendRevisionQuery(em);
    const next = this.running.then(
      () => undefined,
      () => undefined,
    );
    const waiting = next.then(() => {
      this.queued = undefined;
      return this.sendRevisionQuery(em);
    });
    this.queued = waiting;
    return waiting;
  }

  /** See `currentLibrary`. */
  async currentLibrary(em: Em): Promise<CurrentLibrary> {
    const revision = await this.revisionNow(em);
    if (this.current?.revision === revision) return this.current;
    let entry = this.loading;
    if (entry?.revision !== revision) {
      const started = { revision, promise: loadLibrary(em) };
      this.loading = entry = started;
      started.promise
        .then((loaded) => {
          // An older load finishing late must not replace a newer library.
          if (this.loading === started) this.current = loaded;
        })
        .catch(() => {})
        .finally(() => {
          if (this.loading === started) this.loading = undefined;
        });
    }
    // Content and revision come from one read, so a library is never paired with another's revision.
    return entry.promise;
  }
}

const trackerOf = perDatabase('cte-library', () => new LibraryTracker());

/**
 * The revision as of a moment after the call: concurrent callers share one query, but only one sent after
 * each of them called (the query already on the wire may have read too early), so nobody reads a revision
 * older than its own request. Under load this is one query per round trip instead of one per request.
 * A transaction reads its own snapshot.
 */
export const revisionNow = (em: Em): Promise<string> => trackerOf(em).revisionNow(em);

/** The current library; rebuilt once when the imported frameworks or the added edges changed. */
export const currentLibrary = (em: Em): Promise<CurrentLibrary> => trackerOf(em).currentLibrary(em);

/**
 * The current library without asking the database, when the revision the org read cache holds is the
 * one built last (see `OrgReadCache.libraryRevision`): for hot read routes. Otherwise as `currentLibrary`.
 */
export function heldLibrary(ctx: Pick<AppContext, 'readCache'>, em: Em): Ready<CurrentLibrary> {
  const tracker = trackerOf(em);
  return whenReady(heldRevision(ctx, em), (held) =>
    tracker.current?.revision === held ? tracker.current : tracker.currentLibrary(em),
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
