/**
 * Search over the current library. Per library revision and model, one process builds the embedder, the
 * in-memory vector index and the lexical index once: requirement vectors come from the database when the
 * embeddings job stored them for exactly these texts and this model, and are computed on the spot
 * otherwise. The embeddings job and the route share that build, so in-process runs never do it twice.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { releaseFreedMemory } from '../../../platform/memory.js';
import { remember, settled, whenReady } from '../../../platform/ready.js';
import { currentLibrary, heldLibrary } from '../library.service.js';
import { BUILTIN_MODEL } from './builtin-embedder.js';
import { createEmbedder } from './create-embedder.js';
import { libraryDocuments } from './embedder.js';
import { loadStoredVectors, storedFingerprint, storeVectors } from './embeddings.store.js';
import { crosswalkNeighbours, lexicalIndex, RequirementSearch, } from './requirement-search.js';
import { KeptAnswers } from './search-answers.js';
import { VectorIndex } from './vector-index.js';
/** True when the configured model's files are in the model directory (nothing is ever downloaded). */
export function localModelPresent(settings) {
    return existsSync(path.join(settings.modelDir, settings.modelName, 'config.json'));
}
/** The model the library will be embedded with, known without loading it. */
export function expectedModel(settings) {
    return localModelPresent(settings) ? settings.modelName : BUILTIN_MODEL;
}
/** Names a vector set: the model and every embedded text, in order. */
export function vectorFingerprint(model, documents) {
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
function finiteEmbedder(embedder) {
    return {
        model: embedder.model,
        dimension: embedder.dimension,
        embed: async (texts) => (await embedder.embed(texts)).map((vector) => vector.every(Number.isFinite) ? vector : new Float32Array(vector.length)),
    };
}
const EMBED_SLICE = 64;
/** Embeds in slices, yielding between them, so a large library does not hold up the event loop. */
async function embedAll(embedder, documents) {
    const vectors = [];
    for (let start = 0; start < documents.length; start += EMBED_SLICE) {
        const slice = documents.slice(start, start + EMBED_SLICE).map((document) => document.text);
        vectors.push(...(await embedder.embed(slice)));
        await new Promise((resolve) => setImmediate(resolve));
    }
    return vectors;
}
async function buildSearch(em, current, settings, log) {
    const frameworks = current.library.frameworks;
    const documents = libraryDocuments(frameworks);
    const embedder = finiteEmbedder(await createEmbedder({
        // Only hand over the directory when the model is there: a missing model is the normal case.
        modelDir: localModelPresent(settings) ? settings.modelDir : undefined,
        modelName: settings.modelName,
        frameworks,
        log,
    }));
    const fingerprint = vectorFingerprint(embedder.model, documents);
    const stored = await loadStoredVectors(em, embedder.model, fingerprint, documents);
    const vectors = stored ?? (await embedAll(embedder, documents));
    log.info(`search index ready: ${vectors.length} requirement vectors ${stored ? 'from the database' : 'computed'} (${embedder.model})`);
    const items = documents.map(({ frameworkId, requirementId, title }) => ({
        frameworkId,
        requirementId,
        title,
    }));
    return {
        search: new RequirementSearch(embedder, new VectorIndex(embedder.dimension, items, vectors), lexicalIndex(documents), crosswalkNeighbours(items, current.library.edges)),
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
const builds = new Map();
/** The last finished index handed out and what it was asked with: hot routes ask with the same objects. */
let lastHandedOut;
/** The search index of this library and model: at once when it is built, else once it is. */
export function readySearch(em, current, settings, log) {
    if (lastHandedOut?.current === current && lastHandedOut.settings === settings)
        return lastHandedOut.ready;
    // The index depends on the frameworks' texts only: an analyst edge changes the revision, not the index.
    const key = `${current.frameworksRevision}\u001f${settings.modelDir}\u001f${settings.modelName}`;
    let build = builds.get(key);
    if (!build) {
        // Remembered, so that a search of a ready index waits for nothing.
        const started = remember(buildSearch(em, current, settings, log));
        build = started;
        builds.set(key, started);
        started.then(() => {
            // Fitting the embedder and indexing leave tens of MB of garbage behind, once: hand it back to the
            // system a moment later, out of the way of the daemon's start.
            setTimeout(releaseFreedMemory, RELEASE_AFTER_BUILD_MS).unref();
        }, () => builds.delete(key));
        while (builds.size > KEPT_BUILDS)
            builds.delete(builds.keys().next().value);
    }
    const ready = settled(build);
    if (ready instanceof Promise)
        return ready;
    lastHandedOut = { current, settings, ready };
    return ready;
}
/** The `limit` requirements nearest to the query, with the model that ranked them. */
export async function searchRequirements(em, settings, log, query, limit, 
/** The library to search, when the caller has it (routes take it at the held revision). */
current) {
    const ready = await readySearch(em, current ?? (await currentLibrary(em)), settings, log);
    return ready.search.search(query, limit);
}
/**
 * The answer to a search, serialized by `serialize`: from the index's kept answers when the question was
 * asked before with this limit, at once; else ranked, serialized and kept. The library is taken at the
 * revision the org read cache holds, so a hot search asks the database nothing.
 */
export function searchAnswer(ctx, query, limit, serialize) {
    const em = ctx.db.em();
    return whenReady(heldLibrary(ctx, em), (current) => whenReady(readySearch(em, current, ctx.config.embeddings, ctx.log), ({ search, answers }) => {
        // Keyed by the query as parsed, then the limit, so that a hit builds no key.
        const kept = answers.get(query, limit);
        if (kept !== undefined)
            return kept;
        return search.search(query, limit).then((response) => {
            const body = serialize(response);
            answers.set(query, limit, body);
            return body;
        });
    }));
}
/** Whether the stored vectors were made for another library or model (cheap: nothing is embedded). */
export async function embeddingsStale(em, settings) {
    const { library } = await currentLibrary(em);
    const model = expectedModel(settings);
    return ((await storedFingerprint(em, model)) !== vectorFingerprint(model, libraryDocuments(library.frameworks)));
}
/** Refreshes in this process run one at a time, so a burst of imports embeds the final library once. */
let refreshing = Promise.resolve();
/** What the embeddings job does: make sure the database holds the current library's vectors. */
export function refreshEmbeddings(em, settings, log) {
    const run = refreshing.then(() => refreshNow(em, settings, log));
    refreshing = run.catch(() => { });
    return run;
}
async function refreshNow(em, settings, log) {
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
//# sourceMappingURL=search.service.js.map