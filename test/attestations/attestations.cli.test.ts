import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AttestationRecord } from '../../src/shared/attestation-content.js';
import { ADMIN_KEY } from '../support/app.js';
import { callApi, type Daemon, runComply, startDaemon } from '../support/daemon.js';
import { contentHash, merkleTreeHash } from './helpers.js';

// Each command is a process of its own (about 2 s), hence the longer timeout.
describe('comply sidecars, attest and attestations commands', { timeout: 180_000 }, () => {
  let daemon: Daemon;
  let dir: string;
  let admin: Record<string, string>;
  let sidecar: Record<string, string>;
  let keyFile: string;
  let claimsFile: string;
  let keyId: string;

  beforeAll(async () => {
    daemon = await startDaemon();
    dir = mkdtempSync(path.join(tmpdir(), 'comply-attest-cli-'));
    keyFile = path.join(dir, 'sidecar.pem');
    const { privateKey } = generateKeyPairSync('ed25519');
    writeFileSync(keyFile, privateKey.export({ format: 'pem', type: 'pkcs8' }));
    claimsFile = path.join(dir, 'claims.json');
    writeFileSync(claimsFile, JSON.stringify({ evaluation: 'bias', result: 'pass', score: 0.97 }));
    admin = { COMPLY_URL: daemon.url, COMPLY_API_KEY: ADMIN_KEY, COMPLY_ORG: 'acme' };
    expect((await runComply(['orgs', 'create', 'acme', '--name', 'Acme'], admin)).code).toBe(0);
    const created = await runComply(['keys', 'create', '--scopes', 'attest', '--json'], admin);
    sidecar = { ...admin, COMPLY_API_KEY: JSON.parse(created.stdout).key };
  }, 120_000);
  afterAll(async () => {
    await daemon?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('registers the public half of a sidecar key file under the id the sidecar derives', async () => {
    const registered = await runComply(
      ['sidecars', 'register', '--public-key', keyFile, '--name', 'edge', '--json'],
      admin,
    );
    expect(registered.code).toBe(0);
    const key = JSON.parse(registered.stdout);
    expect(key.publicKey).toContain('BEGIN PUBLIC KEY');
    expect(key.keyId).toMatch(/^sk-[0-9a-f]{24}$/);
    keyId = key.keyId;
    const list = await runComply(['sidecars', 'list'], admin);
    expect(list.stdout).toMatch(new RegExp(`^${keyId}\\s+edge\\s+SHA256:`, 'm'));
  });

  it('signs and posts like a sidecar, and a re-run is an idempotent replay', async () => {
    const base = [
      'attest',
      '--key',
      keyFile,
      '--level',
      'L2',
      '--epoch',
      'E1',
      '--control',
      'A.6.2.6',
      // Without a fixed timestamp each run would attest a new moment: different content.
      '--timestamp',
      '2026-11-22T10:00:00.000Z',
      '--id',
      'cli-1',
    ];
    const args = [...base, '--claims', claimsFile];
    const first = await runComply(args, sidecar);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/result\s+stored \(201\)/);
    expect(first.stdout).toMatch(new RegExp(`signedBy\\s+${keyId}`));
    const rerun = await runComply(args, sidecar);
    expect(rerun.code).toBe(0);
    expect(rerun.stdout).toMatch(/result\s+already stored \(200\)/);

    writeFileSync(path.join(dir, 'other.json'), '{"result":"fail"}');
    const changed = await runComply([...base, '--claims', path.join(dir, 'other.json')], sidecar);
    expect(changed.code).toBe(1);
    expect(changed.stderr).toContain('409 CONFLICT');
  });

  it('refuses what cannot be sent, before or by the daemon', async () => {
    const unsigned = await runComply(['attest', '--epoch', 'E1', '--control', 'A.6.2.6'], sidecar);
    expect(unsigned.code).toBe(2);
    expect(unsigned.stderr).toContain('pass --key');
    const unknown = await runComply(
      ['attest', '--level', 'L0', '--epoch', 'E1', '--control', 'A.99'],
      sidecar,
    );
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Unknown control ids: A.99');
  });

  it('lists, shows and summarizes an epoch whose root an auditor can recompute', async () => {
    expect(
      (
        await runComply(
          ['attest', '--level', 'L0', '--epoch', 'E1', '--control', 'A.7.2,A.6.2.6', '--id', 'cli-2'],
          sidecar,
        )
      ).code,
    ).toBe(0);
    const list = await runComply(['attestations', 'list', '--epoch', 'E1', '--total'], admin);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('2 attestation(s) of 2');
    expect(list.stdout).toMatch(/^cli-1\s+L2\s+E1\s+/m);
    expect(list.stdout).toMatch(/^cli-2\s+L0\s+E1\s+\S+\s+A\.7\.2,A\.6\.2\.6\s+-/m);
    expect((await runComply(['attestations', 'list', '--level', 'L0', '--json'], admin)).stdout).toContain(
      '"cli-2"',
    );

    const { attestations: records } = JSON.parse(
      (await runComply(['attestations', 'list', '--epoch', 'E1', '--json'], admin)).stdout,
    ) as { attestations: AttestationRecord[] };
    for (const record of records) {
      const {
        contentHash: hash,
        signature: _s,
        receivedAt: _r,
        serverAssignedId: _a,
        systemId: _n,
        ...content
      } = record;
      expect(hash).toBe(contentHash(content));
    }
    records.sort((a, b) =>
      a.timestamp === b.timestamp
        ? a.attestationId < b.attestationId
          ? -1
          : 1
        : a.timestamp < b.timestamp
          ? -1
          : 1,
    );
    const root = merkleTreeHash(records.map((record) => Buffer.from(record.contentHash, 'hex'))).toString(
      'hex',
    );
    const epoch = await runComply(['attestations', 'epoch', 'E1'], admin);
    expect(epoch.stdout).toMatch(/count\s+2 \(L0 1, L2 1\)/);
    expect(epoch.stdout).toMatch(new RegExp(`merkleRoot\\s+${root}`));
    const shown = await runComply(['attestations', 'show', 'cli-1'], admin);
    expect(shown.stdout).toMatch(/claims\s+\{"evaluation":"bias","result":"pass","score":0\.97\}/);
    // The sidecar's key may post and nothing else.
    expect((await runComply(['attestations', 'show', 'cli-1'], sidecar)).stderr).toContain('403 FORBIDDEN');
  });

  it('lists the attestations about one AI system, named by its name when posted', async () => {
    const { systemId } = await callApi<{ systemId: string }>(
      daemon.url,
      ADMIN_KEY,
      'POST',
      '/orgs/acme/ai-systems',
      {
        name: 'CV screener',
        owner: 'HR',
        purpose: 'Ranks applications',
        riskLevel: 'high',
      },
    );
    const about = ['attest', '--level', 'L0', '--epoch', 'E2', '--control', 'A.6.2.6'];
    expect((await runComply([...about, '--system', 'cv screener', '--id', 'cli-sys'], sidecar)).code).toBe(0);
    expect((await runComply([...about, '--id', 'cli-nosys'], sidecar)).code).toBe(0);
    const listed = await runComply(['attestations', 'list', '--system', systemId, '--json'], admin);
    expect(listed.code, listed.stderr).toBe(0);
    const { attestations } = JSON.parse(listed.stdout) as { attestations: AttestationRecord[] };
    expect(attestations.map((record) => [record.attestationId, record.systemId])).toEqual([
      ['cli-sys', systemId],
    ]);
    expect((await runComply(['attestations', 'list', '--help'], admin)).stdout).toContain(
      '--system <systemId>',
    );
  });

  it('revokes a sidecar key, after which its signatures are refused', async () => {
    expect((await runComply(['sidecars', 'revoke', keyId], admin)).stdout).toContain(`Revoked ${keyId}`);
    const refused = await runComply(
      ['attest', '--key', keyFile, '--epoch', 'E1', '--control', 'A.6.2.6'],
      sidecar,
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('revoked_key');
  });
});
