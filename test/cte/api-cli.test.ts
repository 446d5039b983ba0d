import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY } from '../support/app.js';
import { type Daemon, runComply, startDaemon } from '../support/daemon.js';

/** The CTE commands against a real daemon, which is restarted on the same data directory at the end. */
describe('comply CTE commands against a running daemon', { timeout: 120_000 }, () => {
  const work = mkdtempSync(join(tmpdir(), 'comply-cte-cli-'));
  const dataDir = join(work, 'data');
  const catalogFile = join(work, 'catalog.json');
  let daemon: Daemon;
  let env: Record<string, string>;

  beforeAll(async () => {
    writeFileSync(
      catalogFile,
      JSON.stringify({
        catalog: {
          uuid: '8c2e6f0a-1d4b-4a7e-9f3c-5b6d7e8f9a01',
          metadata: {
            title: 'Vendor AI Catalog: 2026',
            'last-modified': '2026-01-01T00:00:00Z',
            version: '2026.1',
            'oscal-version': '1.2.1',
          },
          groups: [
            {
              id: 'va',
              title: 'Vendor assurance',
              controls: [
                {
                  id: 'va-1',
                  title: 'Vendor model cards',
                  parts: [
                    {
                      id: 'va-1_smt',
                      name: 'statement',
                      prose: 'Obtain a model card from every vendor of a third-party foundation model.',
                    },
                  ],
                },
              ],
            },
          ],
        },
      }),
    );
    writeFileSync(join(work, 'broken.json'), '{"catalog": ');
    daemon = await startDaemon({ COMPLY_DATA_DIR: dataDir });
    env = { COMPLY_URL: daemon.url, COMPLY_API_KEY: ADMIN_KEY, COMPLY_ORG: 'acme' };
    expect((await runComply(['orgs', 'create', 'acme', '--name', 'Acme'], env)).code).toBe(0);
  }, 90_000);
  afterAll(async () => {
    await daemon?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('lists and shows frameworks', async () => {
    const list = await runComply(['frameworks', 'list'], env);
    expect(list.code).toBe(0);
    const lines = list.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^ID\s+CONTROLS\s+DOMAINS\s+NAME$/);
    expect(lines.slice(1).map((line) => line.split(/\s+/).slice(0, 3))).toEqual([
      ['iso-42001', '38', '9'],
      ['nist-ai-rmf', '72', '19'],
      ['eu-ai-act', '60', '-'],
      ['iso-27001', '93', '4'],
      ['gdpr', '36', '-'],
      ['iso-42001-clauses', '36', '7'],
      ['iso-27001-clauses', '34', '7'],
    ]);
    const shown = await runComply(['frameworks', 'show', 'iso-27001', '--json'], env);
    expect(JSON.parse(shown.stdout)).toMatchObject({ id: 'iso-27001', controlCount: 93 });
    const missing = await runComply(['frameworks', 'show', 'sox'], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('error: no such framework sox\n');
  });

  it('shows gaps, coverage with its heatmap and the reasoning', async () => {
    expect(
      (await runComply(['controls', 'status', 'A.6.2.8', 'implemented', '--reviewer', 'alice'], env)).code,
    ).toBe(0);
    const gaps = await runComply(['gaps', 'iso-42001'], env);
    expect(gaps.stdout.split('\n')[0]).toMatch(
      /^37 gaps in iso-42001: \d+ critical, \d+ important, \d+ minor$/,
    );
    expect(gaps.stdout).not.toMatch(/\sA\.6\.2\.8\s/);

    const coverage = await runComply(['coverage'], env);
    expect(coverage.code).toBe(0);
    expect(coverage.stdout).toMatch(/^iso-42001\s+2\.6%/m);
    const heatmap = coverage.stdout.split('Pairwise')[1].trim().split('\n').slice(1);
    expect(heatmap[0]).toMatch(
      /^from \\ to\s+iso-42001\s+nist-ai-rmf\s+eu-ai-act\s+iso-27001\s+gdpr\s+iso-42001-clau/,
    );
    expect(heatmap.slice(1).map((row) => row.split(/\s+/).length)).toEqual([8, 8, 8, 8, 8, 8, 8]);
    expect(heatmap[1]).toMatch(/^iso-42001\s+-\s+\d+\.\d%/);

    const why = await runComply(['coverage', 'eu-ai-act', 'Art. 12'], env);
    // One implemented control that only intersects Art. 12: partial.
    expect(why.stdout).toMatch(/status\s+partial/);
    expect(why.stdout).toContain('A.6.2.8 (implemented, joint): A.6.2.8 intersects with Art. 12');
    expect(why.stdout).toContain('mapped controls (partial, inferred): A.6.2.8');
  });

  it('lists conflicts and searches', async () => {
    const conflicts = JSON.parse((await runComply(['conflicts', '--kind', 'tension', '--json'], env)).stdout);
    expect(conflicts.conflicts.length).toBeGreaterThan(0);
    expect(conflicts.conflicts.every((c: { kind: string }) => c.kind === 'tension')).toBe(true);
    const bad = await runComply(['conflicts', '--kind', 'feud'], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe('error: --kind must be one of: contradiction, tension, overlap\n');

    const search = await runComply(['search', 'keep logs of AI system events', '--limit', '3'], env);
    expect(search.stdout.split('\n')[0]).toBe('model: builtin-tfidf-svd-v1');
    expect(search.stdout).toMatch(/iso-42001\s+A\.6\.2\.8\s+AI system recording of event logs/);
    // model line, blank line, header, three results
    expect(search.stdout.trim().split('\n')).toHaveLength(6);
  });

  it('imports an OSCAL catalog, idempotently, and refuses a file that is not JSON', async () => {
    const first = await runComply(['import', 'oscal', catalogFile, '--json'], env);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({
      id: 'vendor-ai-catalog',
      controlCount: 1,
      outcome: 'created',
    });
    const again = await runComply(['import', 'oscal', catalogFile], env);
    expect(again.stdout).toMatch(/outcome\s+unchanged/);

    const broken = await runComply(['import', 'oscal', join(work, 'broken.json')], env);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain('as JSON');
  });

  it('keeps imported frameworks and their vectors across a restart', async () => {
    await daemon.stop();
    daemon = await startDaemon({ COMPLY_DATA_DIR: dataDir });
    env = { ...env, COMPLY_URL: daemon.url };
    const list = await runComply(['frameworks', 'list', '--json'], env);
    expect(JSON.parse(list.stdout).frameworks.map((f: { id: string }) => f.id)).toContain(
      'vendor-ai-catalog',
    );
    const search = JSON.parse(
      (await runComply(['search', 'model cards from foundation model vendors', '--json'], env)).stdout,
    );
    // The imported control is found; built-in requirements on foundation-model documentation may rank beside it.
    expect(search.results.slice(0, 3).map((hit: { title: string }) => hit.title)).toContain(
      'Vendor model cards',
    );
    // The daemon's log reaches this process through a pipe, possibly after the search answer.
    await expect
      .poll(() => daemon.output())
      .toContain('search index ready: 370 requirement vectors from the database');
  }, 90_000);
});
