/**
 * Search over the current library. Per library revision and model, one process builds the embedder, the
 * in-memory vector index and the lexical index once: requirement vectors come from the database when the
 * embeddings job stored them for exactly these texts and this model, and are computed on the spot
 * otherwise. The embeddings job and the route share that build, so in-process runs never do it twice.
 * A search asked for an organization adds its effective status of each result, from its cached analysis.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyReply } from 'fastify';
import type { AppContext } from '../../../context.js';
import { type SerializedBody, serializedBody } from '../../../platform/cache/org-read-cache.js';
import { type Em, perDatabase } from '../../../platform/db/database.js';
import { forbidden } from '../../../platform/errors.js';
import { releaseFreedMemory } from '../../../platform/memory.js';
import { type Ready, remember, settled, whenReady } from '../../../platform/ready.js';
import { effectiveStatus } from '../../../records/score.js';
import type { AssessmentSource, RequirementStatus } from '../../../shared/vocabulary.js';
import type { CachedAnalysis } from '../analysis.service.js';
import type { RequirementNeighbourhood } from '../crosswalk-suggestions.js';
import { type CurrentLibrary, currentLibrary, heldLibrary, requireFramework } from '../library.service.js';
import { sendRecordReport } from '../report-cache.js';
import { BUILTIN_MODEL } from './builtin-embedder.js';
import { createEmbedder } from './create-embedder.js';
import { type Embedder, libraryDocuments, type RequirementDocument } from './embedder.js';
import { loadStoredVectors, storedFingerprint, storeVectors } from './embeddings.store.js';
import {
  crosswalkNeighbours,
  lexicalIndex,
  RequirementSearch,
  type SearchResponse,
} from './requirement-search.js';
import { KeptAnswers } from './search-answers.js';
import { type SearchHit, VectorIndex } from './vector-index.js';

export interface EmbeddingSettings {
  /** Directory holding `<modelName>/config.json`, `tokenizer.json`, `onnx/model.onnx`. */
  modelDir: string;
  modelName: string;
}

export interface SearchLog {
  info(message: string): void;
  warn(message: string): void;
}

export interface ReadySearch {
  search: RequirementSearch;
  fingerprint: string;
  documents: readonly RequirementDocument[];
  vectors: readonly Float32Array[];
  /** Where the requirement vectors came from. */
  source: 'stored' | 'computed';
  /**
   * Answers already given, serialized. Ranking is a pure function of the index, the query and the limit,
   * and an index never changes once built, so the same question (a search box typed into again, an
   * assistant asking twice, a CI job) is answered from memory; a new index (an import) starts with none.
   */
  answers: KeptAnswers;
  /** The requirements nearest each other by these vectors, built on the first suggestion asked of the build. */
  neighbourhood?: RequirementNeighbourhood;
}

/** True when the configured model's files are in the model directory (nothing is ever downloaded). */
export function localModelPresent(settings: EmbeddingSettings): boolean {
  return existsSync(path.join(settings.modelDir, settings.modelName, 'config.json'));
}

/** The model the library will be embedded with, known without loading it. */
export function expectedModel(settings: EmbeddingSettings): string {
  return localModelPresent(settings) ? settings.modelName : BUILTIN_MODEL;
}

/** Names a vector set: the model and every embedded text, in order. */
export function vectorFingerprint(model: string, documents: readonly RequirementDocument[]): string {
  const hash = createHash('sha256').update(model);
  for (const document of documents) {
    hash.update(`\u001e${document.frameworkId}\u001f${document.requirementId}\u001f${document.text}`);
  }
  return hash.digest('hex').slice(0, 32);
}

/**
 * A model can return NaN for a text it has no token for (the mean of nothing); such a vector is replaced
 * by zeros, which matches nothing, instead of poisoning every distance.
 */
function finiteEmbedder(embedder: Embedder): Embedder {
  return {
    model: embedder.model,
    dimension: embedder.dimension,
    embed: async (texts) =>
      (await embedder.embed(texts)).map((vector) =>
        vector.every(Number.isFinite) ? vector : new Float32Array(vector.length),
      ),
  };
}

const EMBED_SLICE = 64;

/** Embeds in slices, yielding between them, so a large library does not hold up the event loop. */
async function embedAll(embedder: Embedder, documents: readonly RequirementDocument[]) {
  const vectors: Float32Array[] = [];
  for (let start = 0; start < documents.length; start += EMBED_SLICE) {
    const slice = documents.slice(start, start + EMBED_SLICE).map((document) => document.text);
    vectors.push(...(await embedder.embed(slice)));
    await new Promise((resolve) => setImmediate(resolve));
  }
  return vectors;
}

async function buildSearch(
  em: Em,
  current: CurrentLibrary,
  settings: EmbeddingSettings,
  log: SearchLog,
): Promise<ReadySearch> {
  const frameworks = current.library.frameworks;
  const documents = libraryDocuments(frameworks);
  const embedder = finiteEmbedder(
    await createEmbedder({
      // Only hand over the directory when the model is there: a missing model is the normal case.
      modelDir: localModelPresent(settings) ? settings.modelDir : undefined,
      modelName: settings.modelName,
      frameworks,
      log,
    }),
  );
  const fingerprint = vectorFingerprint(embedder.model, documents);
  const stored = await loadStoredVectors(em, embedder.model, fingerprint, documents);
  const vectors = stored ?? (await embedAll(embedder, documents));
  log.info(
    `search index ready: ${vectors.length} requirement vectors ${stored ? 'from the database' : 'computed'} (${embedder.model})`,
  );
  const items = documents.map(({ frameworkId, requirementId, title }) => ({
    frameworkId,
    requirementId,
    title,
  }));
  return {
    search: new RequirementSearch(
      embedder,
      new VectorIndex(embedder.dimension, items, vectors),
      lexicalIndex(documents),
      crosswalkNeighbours(items, current.library.edges),
    ),
    fingerprint,
    documents,
    vectors,
    source: stored ? 'stored' : 'computed',
    answers: new KeptAnswers(),
  };
}

/** How long after an index is built the memory its build freed is handed back (one collection of ~50 ms). */
const RELEASE_AFTER_BUILD_MS = 1000;

/** Builds kept: the current one and the previous one, which in-flight requests may still use. */
const KEPT_BUILDS = 2;

/** One database's search indexes and embedding refreshes (`perDatabase`). */
class SearchBuilds {
  readonly builds = new Map<string, Promise<ReadySearch>>();
  /** The last finished index handed out and what it was asked with: hot routes ask with the same objects. */
  lastHandedOut: { current: CurrentLibrary; settings: EmbeddingSettings; ready: ReadySearch } | undefined;
  /** Refreshes run one at a time, so a burst of imports embeds the final library once. */
  refreshing: Promise<unknown> = Promise.resolve();
}

const searchBuildsOf = perDatabase('search-builds', () => new SearchBuilds());

/** The search index of this library and model: at once when it is built, else once it is. */
export function readySearch(
  em: Em,
  current: CurrentLibrary,
  settings: EmbeddingSettings,
  log: SearchLog,
): Ready<ReadySearch> {
  const state = searchBuildsOf(em);
  const { builds, lastHandedOut } = state;
  if (lastHandedOut?.current === current && lastHandedOut.settings === settings) return lastHandedOut.ready;
  // The index depends on the frameworks' texts only: an analyst edge changes the revision, not the index.
  const key = `${current.frameworksRevision}\u001f${settings.modelDir}\u001f${settings.modelName}`;
  let build = builds.get(key);
  if (!build) {
    // Remembered, so that a search of a ready index waits for nothing.
    const started = remember(buildSearch(em, current, settings, log));
    build = started;
    builds.set(key, started);
    started.then(
      () => {
        // Fitting the embedder and indexing leave tens of MB of garbage behind, once: hand it back to the
        // system a moment later, out of the way of the daemon's start.
        setTimeout(releaseFreedMemory, RELEASE_AFTER_BUILD_MS).unref();
      },
      () => builds.delete(key),
    );
    while (builds.size > KEPT_BUILDS) builds.delete(builds.keys().next().value as string);
  }
  const ready = settled(build);
  if (ready instanceof Promise) return ready;
  state.lastHandedOut = { current, settings, ready };
  return ready;
}

/** The `limit` requirements nearest to the query, with the model that ranked them. */
export async function searchRequirements(
  em: Em,
  settings: EmbeddingSettings,
  log: SearchLog,
  query: string,
  limit: number,
  /** The library to search, when the caller has it (routes take it at the held revision). */
  current?: CurrentLibrary,
): Promise<SearchResponse> {
  const ready = await readySearch(em, current ?? (await currentLibrary(em)), settings, log);
  return ready.search.search(query, limit);
}

/** What a search asks: the text, how many results, and optionally one framework to search in. */
export interface SearchQuestion {
  query: string;
  limit: number;
  frameworkId?: string;
}

/**
 * The organization a search is asked for (a tenant key's, or the `orgId` a platform key names), and the
 * frameworks the caller may read there (an auditor bounded to some; null: every framework).
 */
export interface SearchViewer {
  orgId: string;
  frameworkIds: readonly string[] | null;
}

type SearchContext = Pick<AppContext, 'db' | 'readCache' | 'config' | 'log'>;

/** The library at the revision the org read cache holds, with the framework a search names checked (404). */
function searchedLibrary(ctx: SearchContext, em: Em, frameworkId: string | undefined): Ready<CurrentLibrary> {
  return whenReady(heldLibrary(ctx, em), (current) => {
    if (frameworkId !== undefined) requireFramework(current.library, frameworkId);
    return current;
  });
}

/**
 * The answer to a search, serialized by `serialize`: from the index's kept answers when the question was
 * asked before with this limit and framework, at once; else ranked, serialized and kept. The library is taken
 * at the revision the org read cache holds, so a hot search asks the database nothing.
 */
export function searchAnswer(
  ctx: SearchContext,
  { query, limit, frameworkId }: SearchQuestion,
  serialize: (response: SearchResponse) => string,
): Ready<SerializedBody> {
  const em = ctx.db.em();
  return whenReady(searchedLibrary(ctx, em, frameworkId), (current) =>
    whenReady(readySearch(em, current, ctx.config.embeddings, ctx.log), ({ search, answers }) => {
      // Keyed by the query as parsed (behind the framework searched in, when one is), then the limit, so that
      // a hit on an unfiltered question builds no key.
      const key = frameworkId === undefined ? query : `${frameworkId}\u001f${query}`;
      const kept = answers.get(key, limit);
      if (kept !== undefined) return kept;
      return search.search(query, limit, frameworkId).then((response) => {
        const body = serializedBody(serialize(response));
        answers.set(key, limit, body);
        return body;
      });
    }),
  );
}

/** A search's results with the org's effective status of each requirement the viewer may read. */
export interface OrgSearchResponse extends SearchResponse {
  orgId: string;
  results: (SearchHit & {
    orgStatus?: RequirementStatus;
    applicable?: boolean;
    assessment?: AssessmentSource;
  })[];
}

/**
 * Each result with the org's effective status of it (its own record's, else what the crosswalk infers, as in
 * its requirement list), whether it applies, and where the status comes from. Results of frameworks the viewer
 * may not read (an auditor bounded to others) carry none.
 */
export function withOrgStatus(
  response: SearchResponse,
  analysis: CachedAnalysis,
  frameworkIds: readonly string[] | null,
): OrgSearchResponse {
  return {
    ...response,
    orgId: analysis.orgId,
    results: response.results.map((hit) => {
      const row =
        frameworkIds === null || frameworkIds.includes(hit.frameworkId)
          ? analysis.coverage.get(hit.frameworkId, hit.requirementId)
          : undefined;
      return row
        ? { ...hit, orgStatus: effectiveStatus(row), applicable: row.applicable, assessment: row.assessment }
        : hit;
    }),
  };
}

/**
 * A search asked for an organization: ranked as any other, each result carrying the org's status of it. The
 * answer is kept in the org read cache (until a write to the org, a library change or an evidence expiry),
 * under the question and the frameworks the viewer may read.
 */
export function sendOrgSearch(
  ctx: AppContext,
  reply: FastifyReply,
  viewer: SearchViewer,
  question: SearchQuestion,
): Ready<void> {
  const { frameworkIds } = viewer;
  if (
    question.frameworkId !== undefined &&
    frameworkIds !== null &&
    !frameworkIds.includes(question.frameworkId)
  ) {
    throw forbidden(`Your access covers ${frameworkIds.join(', ')} only`, {
      reason: 'framework_out_of_scope',
      frameworkId: question.frameworkId,
    });
  }
  const em = ctx.db.em();
  return whenReady(searchedLibrary(ctx, em, question.frameworkId), (current) => {
    const name = `search/${createHash('sha256')
      .update(JSON.stringify([question.query, question.limit, question.frameworkId ?? null, frameworkIds]))
      .digest('base64url')}`;
    return sendRecordReport(ctx, reply, viewer.orgId, name, async (analysis) => {
      const { search } = await readySearch(em, current, ctx.config.embeddings, ctx.log);
      const response = await search.search(question.query, question.limit, question.frameworkId);
      return { value: withOrgStatus(response, analysis, frameworkIds) };
    });
  });
}

/** Whether the stored vectors were made for another library or model (cheap: nothing is embedded). */
export async function embeddingsStale(em: Em, settings: EmbeddingSettings): Promise<boolean> {
  const { library } = await currentLibrary(em);
  const model = expectedModel(settings);
  return (
    (await storedFingerprint(em, model)) !== vectorFingerprint(model, libraryDocuments(library.frameworks))
  );
}

export interface EmbeddingsResult {
  model: string;
  fingerprint: string;
  vectors: number;
  /** False when the stored vectors were already current. */
  stored: boolean;
}

/** What the embeddings job does: make sure the database holds the current library's vectors. */
export function refreshEmbeddings(
  em: Em,
  settings: EmbeddingSettings,
  log: SearchLog,
): Promise<EmbeddingsResult> {
  const state = searchBuildsOf(em);
  const run = state.refreshing.then(() => refreshNow(em, settings, log));
  state.refreshing = run.catch(() => {});
  return run;
}

async function refreshNow(em: Em, settings: EmbeddingSettings, log: SearchLog): Promise<EmbeddingsResult> {
  // Read when the turn comes: earlier queued imports are part of the library by then.
  const current = await currentLibrary(em);
  const documents = libraryDocuments(current.library.frameworks);
  const model = expectedModel(settings);
  const expected = vectorFingerprint(model, documents);
  if ((await storedFingerprint(em, model)) === expected) {
    return { model, fingerprint: expected, vectors: documents.length, stored: false };
  }
  const ready = await readySearch(em, current, settings, log);
  const { embedder } = ready.search;
  const stale = (await storedFingerprint(em, embedder.model)) !== ready.fingerprint;
  if (stale) {
    await storeVectors(em, {
      model: embedder.model,
      fingerprint: ready.fingerprint,
      dimension: embedder.dimension,
      documents: ready.documents,
      vectors: ready.vectors,
    });
  }
  return {
    model: embedder.model,
    fingerprint: ready.fingerprint,
    vectors: ready.documents.length,
    stored: stale,
  };
}
