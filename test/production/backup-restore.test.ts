import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { attestation } from '../attestations/helpers.js';
import { ADMIN_KEY, createScratchDatabase } from '../support/app.js';
import { type Daemon, startDaemon } from '../support/daemon.js';

const run = promisify(execFile);
const ORG = 'backup-org';
const EPOCH = 'backup-epoch';

interface Witness {
  snapshotId: string;
  contentHash: string;
  merkleRoot: string;
  count: number;
}

async function api(daemon: Daemon, method: string, url: string, body?: unknown) {
  const res = await fetch(`${daemon.url}/api/v1${url}`, {
    method,
    headers: {
      authorization: `Bearer ${ADMIN_KEY}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

/** Writes an org, a snapshot and an epoch of attestations, and reads back the values a restore must keep. */
async function populate(daemon: Daemon): Promise<Witness> {
  expect((await api(daemon, 'POST', '/orgs', { orgId: ORG, name: 'Backup' })).status).toBe(201);
  const status = await api(daemon, 'PUT', `/orgs/${ORG}/controls/A.2.2/status`, {
    status: 'implemented',
    reviewer: 'alice',
  });
  expect(status.status).toBe(200);
  for (let index = 0; index < 5; index += 1) {
    const posted = await api(
      daemon,
      'POST',
      `/orgs/${ORG}/attestations`,
      attestation({ level: 'L0', epochId: EPOCH }),
    );
    expect(posted.status).toBe(201);
  }
  const snapshot = await api(daemon, 'POST', `/orgs/${ORG}/compliance/snapshot`, { label: 'before backup' });
  expect(snapshot.status).toBe(201);
  const epoch = await api(daemon, 'GET', `/orgs/${ORG}/attestations/epochs/${EPOCH}`);
  return {
    snapshotId: snapshot.json.snapshotId as string,
    contentHash: snapshot.json.contentHash as string,
    merkleRoot: epoch.json.merkleRoot as string,
    count: epoch.json.count as number,
  };
}

/** What a restored daemon must show: the same snapshot hash (recomputed from content) and Merkle root. */
async function verify(daemon: Daemon, before: Witness): Promise<void> {
  const snapshot = await api(daemon, 'GET', `/orgs/${ORG}/compliance/snapshots/${before.snapshotId}`);
  expect(snapshot.json.contentHash).toBe(before.contentHash);
  const check = await api(daemon, 'GET', `/orgs/${ORG}/compliance/snapshots/${before.snapshotId}/verify`);
  expect(check.json).toMatchObject({ valid: true, computedHash: before.contentHash });
  const epoch = await api(daemon, 'GET', `/orgs/${ORG}/attestations/epochs/${EPOCH}`);
  expect(epoch.json).toMatchObject({ count: before.count, merkleRoot: before.merkleRoot });
}

/** The backup and restore procedures of the README, for both storage modes, each into a fresh daemon. */
describe('backup and restore', () => {
  const cleanup: (() => unknown)[] = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
  });
  const tempDir = (prefix: string) => {
    const dir = fs.mkdtempSync(path.join(tmpdir(), prefix));
    cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    return dir;
  };

  it('embedded PGlite: stop the daemon, archive COMPLY_DATA_DIR, unpack it for a fresh daemon', async () => {
    const original = tempDir('comply-backup-src-');
    const first = await startDaemon({ COMPLY_DATA_DIR: original });
    cleanup.push(() => first.stop());
    const before = await populate(first);
    expect(await first.stop('SIGTERM')).toBe(0);

    const archive = path.join(tempDir('comply-backup-file-'), 'comply-data.tar.gz');
    await run('tar', ['-czf', archive, '-C', original, '.']);
    const restored = tempDir('comply-backup-dst-');
    await run('tar', ['-xzf', archive, '-C', restored]);

    const second = await startDaemon({ COMPLY_DATA_DIR: restored });
    cleanup.push(() => second.stop());
    await verify(second, before);
  }, 180_000);

  it('PostgreSQL: pg_dump while the daemon runs, pg_restore into an empty database, a fresh daemon on it', async () => {
    const source = await createScratchDatabase();
    cleanup.push(() => source.drop());
    const first = await startDaemon({ DATABASE_URL: source.url });
    cleanup.push(() => first.stop());
    const before = await populate(first);

    const dump = path.join(tempDir('comply-backup-file-'), 'comply.dump');
    await run('pg_dump', ['--format=custom', '--file', dump, source.url]);
    await first.stop();

    const target = await createScratchDatabase({ empty: true });
    cleanup.push(() => target.drop());
    await run('pg_restore', ['--no-owner', '--no-acl', '--exit-on-error', '--dbname', target.url, dump]);

    const second = await startDaemon({ DATABASE_URL: target.url });
    cleanup.push(() => second.stop());
    await verify(second, before);
  }, 180_000);
});
