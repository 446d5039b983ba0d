import { useState } from 'react';
import { snapshotHash } from '../merkle';
import { createSnapshot, fetchSnapshotForCheck, useSnapshots } from '../resources/snapshots';
import { Field, Pager, Scroll, Show, score, useAction, useSession, when } from '../ui';

/** Snapshots: create one, list them, and verify a hash here and on the server. */
export function SnapshotsView() {
  const session = useSession();
  const [offset, setOffset] = useState(0);
  const list = useSnapshots(offset, 20);
  const create = useAction();
  const [form, setForm] = useState({ label: '', notes: '' });
  const [checks, setChecks] = useState<Record<string, { valid: boolean; computedHash: string } | string>>({});
  return (
    <>
      <h1>Snapshots</h1>
      {session.can.write ? (
        <form
          className="card"
          aria-labelledby="snapshot-form"
          onSubmit={async (event) => {
            event.preventDefault();
            const body = { label: form.label, ...(form.notes ? { notes: form.notes } : {}) };
            if (await create.run(() => createSnapshot(session, body), 'Snapshot created'))
              setForm({ label: '', notes: '' });
          }}
        >
          <h2 id="snapshot-form">Create a snapshot</h2>
          <div className="filters">
            <Field label="Label">
              {(id) => (
                <input
                  id={id}
                  required
                  value={form.label}
                  onChange={(e) => setForm({ ...form, label: e.target.value })}
                />
              )}
            </Field>
            <Field label="Notes">
              {(id) => (
                <input
                  id={id}
                  value={form.notes}
                  onChange={(e) => setForm({ ...form, notes: e.target.value })}
                />
              )}
            </Field>
          </div>
          <button type="submit" disabled={create.busy}>
            Create snapshot
          </button>
          {create.message}
        </form>
      ) : null}
      <Show loaded={list}>
        {(l) => (
          <>
            <Scroll>
              <table data-testid="snapshots">
                <thead>
                  <tr>
                    <th scope="col">Label</th>
                    <th scope="col">Created</th>
                    <th scope="col">Score</th>
                    <th scope="col">Content hash</th>
                    <th scope="col">Check</th>
                  </tr>
                </thead>
                <tbody>
                  {l.snapshots.map((s) => {
                    const check = checks[s.snapshotId];
                    return (
                      <tr key={s.snapshotId} data-snapshot={s.label}>
                        <th scope="row">
                          {s.label}
                          {s.notes ? <div className="muted">{s.notes}</div> : null}
                        </th>
                        <td>{when(s.createdAt)}</td>
                        <td className="num">{score(s.score)}</td>
                        <td>
                          <code>{s.contentHash.slice(0, 16)}…</code>
                        </td>
                        <td>
                          <button
                            type="button"
                            aria-label={`Verify the hash of ${s.label}`}
                            onClick={async () => {
                              try {
                                const [server, full] = await fetchSnapshotForCheck(session, s.snapshotId);
                                const local = await snapshotHash(full);
                                setChecks((c) => ({
                                  ...c,
                                  [s.snapshotId]: {
                                    valid: server.valid && local === s.contentHash,
                                    computedHash: local,
                                  },
                                }));
                              } catch (error) {
                                setChecks((c) => ({ ...c, [s.snapshotId]: (error as Error).message }));
                              }
                            }}
                          >
                            Verify
                          </button>{' '}
                          <span role="status">
                            {check === undefined
                              ? ''
                              : typeof check === 'string'
                                ? check
                                : check.valid
                                  ? 'hash valid (recomputed here and by the server)'
                                  : 'hash MISMATCH'}
                          </span>
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </Scroll>
            <Pager offset={offset} limit={20} total={l.total} onChange={setOffset} label="Snapshots" />
          </>
        )}
      </Show>
    </>
  );
}
