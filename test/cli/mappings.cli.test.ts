import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBuiltinLibrary } from '../../src/features/cte/library.js';
import { ADMIN_KEY } from '../support/app.js';
import { type Daemon, runComply, startDaemon } from '../support/daemon.js';
import { oscalCatalog } from '../support/oscal-catalog.js';

/** `comply similar` and `comply mappings …` against a real daemon. */
describe('comply similar and mappings against a running daemon', { timeout: 120_000 }, () => {
  const work = mkdtempSync(join(tmpdir(), 'comply-mappings-cli-'));
  const catalogFile = join(work, 'catalog.json');
  let daemon: Daemon;
  let env: Record<string, string>;

  beforeAll(async () => {
    writeFileSync(
      catalogFile,
      JSON.stringify(
        oscalCatalog('3e9b1c7a-2d4f-4e8a-b6c0-7f1a2b3c4d5e', 'Model Ops Catalog', {
          controls: [
            {
              id: 'mo-1',
              title: 'Event logs of AI systems',
              prose:
                'Record event logs while an AI system runs and keep them so its behaviour can be traced.',
            },
            {
              id: 'mo-2',
              title: 'Impact assessment of AI systems',
              prose: 'Assess the impact an AI system can have on individuals and society before deployment.',
            },
          ],
        }),
      ),
    );
    daemon = await startDaemon({ COMPLY_DATA_DIR: join(work, 'data') });
    env = { COMPLY_URL: daemon.url, COMPLY_API_KEY: ADMIN_KEY };
    expect((await runComply(['import', 'oscal', catalogFile, '--id', 'model-ops'], env)).code).toBe(0);
  }, 90_000);
  afterAll(async () => {
    await daemon?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('shows the nearest requirements of other frameworks', async () => {
    const similar = await runComply(
      ['similar', 'model-ops', 'mo-1', '--framework', 'iso-42001', '--limit', '3'],
      env,
    );
    expect(similar.code).toBe(0);
    const lines = similar.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^model-ops mo-1 \(model: .+\)$/);
    expect(similar.stdout).toMatch(/^DISTANCE\s+FRAMEWORK\s+REQUIREMENT\s+MAPPED\s+TITLE$/m);
    expect(similar.stdout).toMatch(/^\d\.\d{4}\s+iso-42001\s+A\.6\.2\.8\s+no\s+/m);
  });

  it('suggests, accepts above a score (dry run first), lists, adds and removes edges', async () => {
    const suggested = await runComply(
      ['mappings', 'suggest', '--from', 'model-ops', '--to', 'iso-42001', '--json'],
      env,
    );
    expect(suggested.code).toBe(0);
    const { suggestions } = JSON.parse(suggested.stdout);
    expect(suggestions.length).toBeGreaterThan(0);
    const best = suggestions[0].score;

    const dry = await runComply(
      [
        'mappings',
        'suggest',
        '--from',
        'model-ops',
        '--to',
        'iso-42001',
        '--accept-above',
        String(best),
        '--dry-run',
      ],
      env,
    );
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('nothing added (dry run)');
    expect(dry.stdout).toMatch(/^would add\s/m);
    const none = await runComply(['mappings', 'list', '--added', '--json'], env);
    expect(JSON.parse(none.stdout).edges).toEqual([]);

    const accepted = await runComply(
      [
        'mappings',
        'suggest',
        '--from',
        'model-ops',
        '--to',
        'iso-42001',
        '--accept-above',
        String(best),
        '--json',
      ],
      env,
    );
    expect(accepted.code).toBe(0);
    const outcomes = JSON.parse(accepted.stdout).accepted;
    expect(outcomes.length).toBeGreaterThan(0);
    expect(outcomes.every((entry: { outcome: string }) => entry.outcome === 'added')).toBe(true);

    const listed = await runComply(['mappings', 'list', '--added', '--json'], env);
    const edges = JSON.parse(listed.stdout).edges;
    expect(edges.map((edge: { edgeId: string }) => edge.edgeId).sort()).toEqual(
      outcomes.map((entry: { edgeId: string }) => entry.edgeId).sort(),
    );
    expect(edges[0]).toMatchObject({
      sourceFrameworkId: 'model-ops',
      targetFrameworkId: 'iso-42001',
      origin: 'analyst',
    });

    // Accepting again finds nothing new: the pairs are joined and no longer suggested.
    const again = await runComply(
      ['mappings', 'suggest', '--from', 'model-ops', '--to', 'iso-42001', '--json', '--limit', '1000'],
      env,
    );
    for (const entry of outcomes) {
      expect(JSON.parse(again.stdout).suggestions).not.toContainEqual(
        expect.objectContaining({ sourceId: entry.suggestion.sourceId, targetId: entry.suggestion.targetId }),
      );
    }

    // Added by hand: a requirement the accepted suggestions left unjoined.
    const acceptedSources = outcomes.map(
      (entry: { suggestion: { sourceId: string } }) => entry.suggestion.sourceId,
    );
    const manual = acceptedSources.includes('mo-1') ? 'mo-2' : 'mo-1';
    expect(acceptedSources).not.toContain(manual);
    const added = await runComply(
      [
        'mappings',
        'add',
        'model-ops',
        manual,
        'equal',
        'iso-42001',
        'A.6.2.8',
        '--rationale',
        'Both ask for event logs.',
      ],
      env,
    );
    expect(added.code, added.stderr).toBe(0);
    const edgeId = /^edge\s+(\S+)$/m.exec(added.stdout)?.[1] as string;
    expect(edgeId).toMatch(/^[0-9a-f-]{36}$/);
    const duplicate = await runComply(
      ['mappings', 'add', 'iso-42001', 'A.6.2.8', 'intersect', 'model-ops', manual, '--rationale', 'Again.'],
      env,
    );
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toContain('409');
    const table = await runComply(['mappings', 'list', '--from', 'model-ops'], env);
    expect(table.stdout).toMatch(
      new RegExp(`^${edgeId}\\s+model-ops ${manual}\\s+equal\\s+iso-42001 A\\.6\\.2\\.8\\s+analyst`, 'm'),
    );

    const removed = await runComply(['mappings', 'remove', edgeId], env);
    expect(removed.code).toBe(0);
    const shipped = await runComply(['mappings', 'remove', loadBuiltinLibrary().edges[0].edgeId], env);
    expect(shipped.code).toBe(1);
    expect(shipped.stderr).toContain('409 CONFLICT');
    const badRelationship = await runComply(
      ['mappings', 'add', 'model-ops', 'mo-2', 'related', 'iso-42001', 'A.5.2', '--rationale', 'x'],
      env,
    );
    expect(badRelationship.code).toBe(2);
    const dryAlone = await runComply(
      ['mappings', 'suggest', '--from', 'model-ops', '--to', 'gdpr', '--dry-run'],
      env,
    );
    expect(dryAlone.code).toBe(2);
  });
});
