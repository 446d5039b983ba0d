import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBuiltinLibrary } from '../../src/features/cte/library.js';
import { BUILTIN_MODEL } from '../../src/features/cte/search/builtin-embedder.js';
import { fitBuiltinEmbedder } from '../../src/features/cte/search/create-embedder.js';
import { libraryDocuments } from '../../src/features/cte/search/embedder.js';
import { cteEmbeddingsJob } from '../../src/features/cte/search/embeddings.job.js';
import { loadStoredVectors } from '../../src/features/cte/search/embeddings.store.js';
import { RequirementSearch } from '../../src/features/cte/search/requirement-search.js';
import { searchRequirements, vectorFingerprint } from '../../src/features/cte/search/search.service.js';
import type { LabelledQuery } from '../../src/features/cte/search/search-evaluation.js';
import { createJobRunner } from '../../src/platform/jobs/create-job-runner.js';
import { startWorker } from '../../src/worker.js';
import { createTestApp, dbKinds, openTestDatabase, REDIS_TEST_URL, type TestApp } from '../support/app.js';
import { addMember, signIn } from '../support/people.js';
import { removePrefix } from '../support/redis-prefix.js';
import { writeTinyModel } from './tiny-transformers-model.js';

const SEARCH = '/api/v1/cte/embeddings/distance';
const labelled: LabelledQuery[] = JSON.parse(
  readFileSync(new URL('./search-queries.json', import.meta.url), 'utf8'),
).queries;

interface Hit {
  frameworkId: string;
  requirementId: string;
  title: string;
  distance: number;
}

/** The same search in this process, the oracle for the HTTP answers (fitted once for both databases). */
let reference: RequirementSearch;
beforeAll(async () => {
  const library = loadBuiltinLibrary();
  reference = await RequirementSearch.build(library, fitBuiltinEmbedder(library.frameworks));
});

const refsOf = (results: Hit[]) => results.map((hit) => `${hit.frameworkId}:${hit.requirementId}`);

describe.each(dbKinds)('CTE search API on %s', (kind) => {
  let t: TestApp;
  const org = `${kind}-search`;
  const search = (body: unknown, key?: string | null) =>
    t.request({ method: 'POST', url: SEARCH, body, key });

  beforeAll(async () => {
    t = await createTestApp(kind);
    await t.createOrg(org);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('ranks the logging requirements of several frameworks first, nearest first', async () => {
    const res = await search({ query: 'keep logs of AI system events', limit: 5 });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ query: 'keep logs of AI system events', model: BUILTIN_MODEL });
    expect(refsOf(body.results)).toEqual(
      expect.arrayContaining(['eu-ai-act:Art. 12', 'iso-42001:A.6.2.8', 'iso-27001:A.8.15']),
    );
    expect(new Set(body.results.map((hit: Hit) => hit.frameworkId)).size).toBeGreaterThanOrEqual(3);
    const distances = body.results.map((hit: Hit) => hit.distance);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    expect(Object.keys(body.results[0])).toEqual(['frameworkId', 'requirementId', 'title', 'distance']);
  });

  it('answers every labelled query as the in-process search does, 10 results by default', async () => {
    let firstHits = 0;
    for (const { query, expected } of labelled) {
      const res = await search({ query });
      expect(res.statusCode).toBe(200);
      const { results } = res.json();
      expect(results).toHaveLength(10);
      const expectedHits = (await reference.search(query, 10)).results.map(
        ({ frameworkId, requirementId, title, distance }) => ({
          frameworkId,
          requirementId,
          title,
          distance,
        }),
      );
      expect(results).toEqual(expectedHits);
      if (expected.includes(refsOf(results)[0])) firstHits += 1;
    }
    // MRR of the built-in embedder is 0.98 on this set: nearly every query has an expected hit first.
    expect(firstHits / labelled.length).toBeGreaterThanOrEqual(0.9);
    expect((await search({ query: 'human oversight', limit: 100 })).json().results).toHaveLength(100);
  });

  it('validates the body', async () => {
    const bad: unknown[] = [
      { query: 'logs', limit: 0 },
      { query: 'logs', limit: 101 },
      { query: 'logs', limit: 2.5 },
      { query: 'logs', limit: '10' },
      { query: '' },
      { query: '   ' },
      { query: 'x'.repeat(2001) },
      { limit: 5 },
      { query: 42 },
      { query: 'logs', model: 'other' },
      [],
    ];
    for (const body of bad) {
      const res = await search(body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(res.json().error.code).toBe('BAD_REQUEST');
      expect(res.json().error.details.fields.length).toBeGreaterThan(0);
    }
    const notJson = await t.request({
      method: 'POST',
      url: SEARCH,
      body: 'query=logs',
      headers: { 'content-type': 'application/json' },
    });
    expect(notJson.statusCode).toBe(400);
    expect((await search({ query: 'x'.repeat(2000), limit: 1 })).statusCode).toBe(200);
  });

  it('needs a key with the read scope, tenant or platform', async () => {
    expect((await search({ query: 'logs' }, null)).statusCode).toBe(401);
    const attestOnly = await t.createKey(org, ['attest']);
    const refused = await search({ query: 'logs' }, attestOnly);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.details).toEqual({ requiredScope: 'read' });
    const reader = await t.createKey(org, ['read']);
    expect((await search({ query: 'logs' }, reader)).statusCode).toBe(200);
  });

  it('searches one framework when asked: its nearest requirements, as the in-process search ranks them', async () => {
    const query = 'keep logs of AI system events';
    const res = await search({ query, limit: 5, frameworkId: 'iso-27001' });
    expect(res.statusCode).toBe(200);
    const { results } = res.json();
    expect(results).toHaveLength(5);
    expect(new Set(results.map((hit: Hit) => hit.frameworkId))).toEqual(new Set(['iso-27001']));
    expect(refsOf(results)[0]).toBe('iso-27001:A.8.15');
    expect(results).toEqual(
      (await reference.search(query, 5, 'iso-27001')).results.map(
        ({ frameworkId, requirementId, title, distance }) => ({
          frameworkId,
          requirementId,
          title,
          distance,
        }),
      ),
    );
    // Asked again, it is answered from memory, and the unfiltered answer to the same question is another.
    expect((await search({ query, limit: 5, frameworkId: 'iso-27001' })).body).toBe(res.body);
    const everywhere = (await search({ query, limit: 5 })).json().results;
    expect(new Set(everywhere.map((hit: Hit) => hit.frameworkId)).size).toBeGreaterThan(1);
    // A framework smaller than the limit gives what it has.
    const clauses = (await search({ query, limit: 100, frameworkId: 'iso-42001-clauses' })).json().results;
    expect(clauses).toHaveLength(36);

    const unknown = await search({ query, frameworkId: 'no-such-framework' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
      details: { frameworkId: 'no-such-framework' },
    });
    for (const frameworkId of ['', 42, 'x'.repeat(129)]) {
      const bad = await search({ query, frameworkId });
      expect(bad.statusCode, JSON.stringify(frameworkId)).toBe(400);
      expect(bad.json().error.code).toBe('BAD_REQUEST');
    }
  });

  it("gives an organization's caller its status of each result, as its requirement list says", async () => {
    const statusOrg = `${kind}-search-status`;
    await t.createOrg(statusOrg);
    const tenant = await t.createKey(statusOrg, ['read', 'write']);
    const requirementUrl = (frameworkId: string, requirementId: string) =>
      `/api/v1/orgs/${statusOrg}/frameworks/${frameworkId}/requirements/${encodeURIComponent(requirementId)}`;
    const put = async (frameworkId: string, requirementId: string, what: string, body: unknown) => {
      const res = await t.request({
        method: 'PUT',
        url: `${requirementUrl(frameworkId, requirementId)}/${what}`,
        body,
        key: tenant,
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    // The oracle: the org's own requirement entry.
    const entryOf = async (frameworkId: string, requirementId: string) =>
      (
        await t.request({ method: 'GET', url: requirementUrl(frameworkId, requirementId), key: tenant })
      ).json();
    const question = { query: 'keep logs of AI system events', limit: 10 };
    const hitOf = (results: (Hit & Record<string, unknown>)[], ref: string) =>
      results.find((hit) => `${hit.frameworkId}:${hit.requirementId}` === ref);

    const before = (await search(question, tenant)).json();
    expect(before.orgId).toBe(statusOrg);
    expect(hitOf(before.results, 'eu-ai-act:Art. 12')).toMatchObject({
      orgStatus: 'not_started',
      applicable: true,
      assessment: 'none',
    });
    // The ranking is the same as anyone's: only the org's status is added.
    const anyone = (await search(question)).json();
    expect(anyone.orgId).toBeUndefined();
    expect(Object.keys(anyone.results[0])).toEqual(['frameworkId', 'requirementId', 'title', 'distance']);
    expect(
      before.results.map(({ frameworkId, requirementId, title, distance }: Hit) => ({
        frameworkId,
        requirementId,
        title,
        distance,
      })),
    ).toEqual(anyone.results);

    // A direct record, an inference through the crosswalk (ISO 27001 logging gives credit to AI Act Art. 12)
    // and an exclusion; the kept answer must not outlive the writes.
    await put('iso-27001', 'A.8.15', 'status', { status: 'implemented', reviewer: 'Search Test' });
    await put('iso-42001', 'A.6.2.8', 'status', { status: 'in_progress', reviewer: 'Search Test' });
    await put('gdpr', 'Art. 30', 'applicability', {
      applicable: false,
      justification: 'No personal data in these logs',
      reviewer: 'Search Test',
    });
    const after = (await search(question, tenant)).json();
    for (const [frameworkId, requirementId] of [
      ['iso-27001', 'A.8.15'],
      ['iso-42001', 'A.6.2.8'],
      ['eu-ai-act', 'Art. 12'],
      ['gdpr', 'Art. 30'],
    ]) {
      const entry = await entryOf(frameworkId, requirementId);
      const hit = hitOf(after.results, `${frameworkId}:${requirementId}`);
      if (!hit) continue;
      expect(hit, `${frameworkId} ${requirementId}`).toMatchObject({
        orgStatus: entry.status,
        applicable: entry.applicable,
        assessment: entry.assessment,
      });
    }
    expect(hitOf(after.results, 'iso-27001:A.8.15')).toMatchObject({
      orgStatus: 'implemented',
      assessment: 'direct',
    });
    expect(hitOf(after.results, 'iso-42001:A.6.2.8')).toMatchObject({
      orgStatus: 'in_progress',
      assessment: 'direct',
    });
    expect(hitOf(after.results, 'eu-ai-act:Art. 12')).toMatchObject({ assessment: 'inferred' });
    expect(hitOf(after.results, 'eu-ai-act:Art. 12')?.orgStatus).not.toBe('not_started');
    const excluded = (
      await search({ query: 'records of processing activities', limit: 3, frameworkId: 'gdpr' }, tenant)
    ).json();
    const entry = await entryOf('gdpr', 'Art. 30');
    expect(entry.applicable).toBe(false);
    expect(hitOf(excluded.results, 'gdpr:Art. 30')).toMatchObject({
      orgStatus: entry.status,
      applicable: false,
      assessment: entry.assessment,
    });

    // A platform key names the org and gets the same answer; naming none, it gets the ranking alone.
    const named = await t.request({ method: 'POST', url: `${SEARCH}?orgId=${statusOrg}`, body: question });
    expect(named.json()).toEqual(after);
    const unknownOrg = await t.request({
      method: 'POST',
      url: `${SEARCH}?orgId=no-such-org`,
      body: question,
    });
    expect(unknownOrg.statusCode).toBe(404);
    // A tenant key cannot ask for another org's statuses.
    const other = await t.request({
      method: 'POST',
      url: `${SEARCH}?orgId=${org}`,
      body: question,
      key: tenant,
    });
    expect(other.statusCode).toBe(403);
  });

  it("withholds the org's status of frameworks an auditor may not read, and refuses a search in one", async () => {
    const auditedOrg = `${kind}-search-audited`;
    await t.createOrg(auditedOrg);
    await addMember(t, auditedOrg, {
      email: `auditor-${kind}@example.com`,
      name: 'Search Auditor',
      role: 'auditor',
      frameworkIds: ['iso-42001'],
      expiresAt: new Date(Date.now() + 14 * 86_400_000).toISOString(),
    });
    const cookie = await signIn(t, `auditor-${kind}@example.com`, 'correct horse battery');
    const asAuditor = (body: unknown) =>
      t.request({
        method: 'POST',
        url: `${SEARCH}?orgId=${auditedOrg}`,
        body,
        key: null,
        headers: { cookie, origin: 'http://localhost:80' },
      });
    const res = await asAuditor({ query: 'keep logs of AI system events', limit: 10 });
    expect(res.statusCode, res.body).toBe(200);
    const { results } = res.json();
    const iso = results.filter((hit: Hit) => hit.frameworkId === 'iso-42001');
    const others = results.filter((hit: Hit) => hit.frameworkId !== 'iso-42001');
    expect(iso.length).toBeGreaterThan(0);
    expect(others.length).toBeGreaterThan(0);
    for (const hit of iso) expect(hit).toHaveProperty('orgStatus');
    for (const hit of others)
      expect(Object.keys(hit)).toEqual(['frameworkId', 'requirementId', 'title', 'distance']);
    expect((await asAuditor({ query: 'event logs', frameworkId: 'iso-42001' })).statusCode).toBe(200);
    const refused = await asAuditor({ query: 'event logs', frameworkId: 'eu-ai-act' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.details).toMatchObject({
      reason: 'framework_out_of_scope',
      frameworkId: 'eu-ai-act',
    });
  });

  it('stores the vectors through the embeddings job, once per library', async () => {
    const settings = t.config.embeddings;
    const first = await t.jobs.run(cteEmbeddingsJob, settings);
    expect(first).toMatchObject({ model: BUILTIN_MODEL, vectors: 369, stored: true });
    const again = await t.jobs.run(cteEmbeddingsJob, settings);
    expect(again).toMatchObject({ fingerprint: first.fingerprint, stored: false });

    const documents = libraryDocuments(loadBuiltinLibrary().frameworks);
    expect(first.fingerprint).toBe(vectorFingerprint(BUILTIN_MODEL, documents));
    const stored = await loadStoredVectors(t.db.em(), BUILTIN_MODEL, first.fingerprint, documents);
    expect(stored).toHaveLength(369);
    const computed = await reference.embedder.embed(documents.slice(0, 3).map((document) => document.text));
    for (let i = 0; i < 3; i += 1) expect(Array.from(stored![i])).toEqual(Array.from(computed[i]));
    // Vectors made for other texts are never handed out.
    expect(
      await loadStoredVectors(t.db.em(), BUILTIN_MODEL, 'another-fingerprint', documents),
    ).toBeUndefined();
  });

  it('finds, analyses and embeds an imported framework', async () => {
    const catalog = {
      catalog: {
        uuid: '5b0f3c9a-7e21-4d8b-a6f4-2c9e1d7b3a55',
        metadata: {
          title: 'Quantum Safety Catalog',
          'last-modified': '2026-01-01T00:00:00Z',
          version: '1',
          'oscal-version': '1.2.1',
        },
        controls: [
          {
            id: 'qs-1',
            title: 'Quantum-resistant key rotation',
            parts: [
              {
                id: 'qs-1_smt',
                name: 'statement',
                prose: 'Rotate lattice-based encryption keys of model weights every quarter.',
              },
            ],
          },
        ],
      },
    };
    // Asked before the import: the answer is kept for that index, and must not outlive it.
    const before = await search({ query: 'rotate quantum resistant lattice keys', limit: 3 });
    expect(before.json().results.map((hit: Hit) => hit.frameworkId)).not.toContain('quantum-safety-catalog');
    expect((await search({ query: 'rotate quantum resistant lattice keys', limit: 3 })).body).toBe(
      before.body,
    );
    const imported = await t.request({ method: 'POST', url: '/api/v1/cte/frameworks/import', body: catalog });
    expect(imported.statusCode).toBe(201);
    const res = await search({ query: 'rotate quantum resistant lattice keys', limit: 3 });
    expect(res.json().results[0]).toMatchObject({
      frameworkId: 'quantum-safety-catalog',
      requirementId: 'qs-1',
      title: 'Quantum-resistant key rotation',
    });
    const gaps = (
      await t.request({ method: 'GET', url: `/api/v1/cte/gaps/quantum-safety-catalog?orgId=${org}` })
    ).json();
    expect(gaps.gaps).toEqual([
      {
        controlId: 'qs-1',
        priority: 'minor',
        status: 'uncovered',
        recommendation: expect.stringMatching(/^No iso-42001 control maps to qs-1.*comply --org .* assess/),
      },
    ]);
    expect(gaps.summary).toEqual({ critical: 0, important: 0, minor: 1 });
    const coverage = (await t.request({ method: 'GET', url: `/api/v1/cte/coverage?orgId=${org}` })).json();
    expect(coverage.frameworks.at(-1)).toMatchObject({
      frameworkId: 'quantum-safety-catalog',
      total: 1,
      uncovered: 1,
    });
    expect(coverage.pairwise).toHaveLength(8 * 7);

    const settled = await t.jobs.run(cteEmbeddingsJob, t.config.embeddings);
    expect(settled.vectors).toBe(370);
    const [set] = await t.db
      .em()
      .execute<{ vectorCount: number }[]>(
        'select vector_count as "vectorCount" from cte_embedding_sets where model = ?',
        [BUILTIN_MODEL],
      );
    expect(set.vectorCount).toBe(370);
  });
  it('embeds with a local transformers model when its files are present, else falls back', async () => {
    const modelDir = mkdtempSync(join(tmpdir(), 'comply-cte-model-'));
    writeTinyModel(modelDir, 'test/tiny-embedder');
    // A model directory whose model cannot load.
    mkdirSync(join(modelDir, 'test/broken'), { recursive: true });
    writeFileSync(join(modelDir, 'test/broken/config.json'), '{"model_type":"bert"}');
    const quiet = { info: () => {}, warn: () => {} };
    const tiny = { modelDir, modelName: 'test/tiny-embedder' };
    const found = await searchRequirements(t.db.em(), tiny, quiet, 'event logs', 5);
    expect(found.model).toBe('test/tiny-embedder');
    expect(found.results).toHaveLength(5);
    const result = await t.jobs.run(cteEmbeddingsJob, tiny);
    expect(result).toMatchObject({ model: 'test/tiny-embedder', vectors: 370, stored: true });
    const [set] = await t.db
      .em()
      .execute<{ dimension: number }[]>('select dimension from cte_embedding_sets where model = ?', [
        'test/tiny-embedder',
      ]);
    expect(set.dimension).toBe(3);
    const broken = { modelDir, modelName: 'test/broken' };
    expect((await searchRequirements(t.db.em(), broken, quiet, 'event logs', 5)).model).toBe(BUILTIN_MODEL);
  });
});

describe.runIf(dbKinds.includes('postgres'))('the embeddings job on a BullMQ worker', () => {
  it('runs from the queue on a worker and stores the vectors', async () => {
    const testDb = await openTestDatabase('postgres');
    const prefix = `comply-cte-${randomUUID()}`;
    const log = pino({ level: 'silent' });
    const runner = createJobRunner(
      { redisUrl: REDIS_TEST_URL, jobWaitMs: 60_000, queuePrefix: prefix },
      testDb.db,
      log,
    );
    const worker = await startWorker(
      { ...testDb.config, redisUrl: REDIS_TEST_URL },
      { prefix, log, jobs: [cteEmbeddingsJob] },
    );
    // A job is refused at once while no worker serves its queue: wait for this one to be connected.
    await worker.ready();
    try {
      expect(runner.kind).toBe('bullmq');
      const result = await runner.run(cteEmbeddingsJob, testDb.config.embeddings, { timeoutMs: 60_000 });
      expect(result).toMatchObject({ model: BUILTIN_MODEL, vectors: 369, stored: true });
      const [set] = await testDb.db
        .em()
        .execute<{ fingerprint: string }[]>('select fingerprint from cte_embedding_sets where model = ?', [
          BUILTIN_MODEL,
        ]);
      expect(set.fingerprint).toBe(result.fingerprint);
    } finally {
      await worker.close();
      await runner.close();
      await removePrefix(REDIS_TEST_URL, prefix);
      await testDb.close();
    }
  }, 90_000);
});
