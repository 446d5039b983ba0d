import { useState } from 'react';
import { systemHref } from '../links';
import { snapshotHash } from '../merkle';
import { fetchExport } from '../resources/exports';
import { useOrgFrameworks } from '../resources/frameworks';
import { createSnapshot, fetchSnapshotForCheck, useSnapshots } from '../resources/snapshots';
import { addAiSystem, useAiSystems } from '../resources/systems';
import {
  Badge,
  download,
  Field,
  label,
  Pager,
  Scroll,
  Show,
  score,
  useAction,
  useSession,
  when,
} from '../ui';
import { SoaChecksPanel } from './soa-checks';

const RISKS = ['minimal', 'limited', 'high', 'unacceptable'];
const STAGES = ['design', 'development', 'validation', 'deployed', 'retired'];

export function SystemsView() {
  const session = useSession();
  const [filters, setFilters] = useState({ riskLevel: '', lifecycleStage: '' });
  const list = useAiSystems(filters);
  const add = useAction();
  const empty = { name: '', owner: '', purpose: '', riskLevel: 'limited', lifecycleStage: 'design' };
  const [form, setForm] = useState(empty);
  return (
    <>
      <h1>AI systems</h1>
      <div className="filters">
        <Field label="Risk tier">
          {(id) => (
            <select
              id={id}
              value={filters.riskLevel}
              onChange={(e) => setFilters({ ...filters, riskLevel: e.target.value })}
            >
              <option value="">any</option>
              {RISKS.map((r) => (
                <option key={r}>{r}</option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Lifecycle stage">
          {(id) => (
            <select
              id={id}
              value={filters.lifecycleStage}
              onChange={(e) => setFilters({ ...filters, lifecycleStage: e.target.value })}
            >
              <option value="">any</option>
              {STAGES.map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <Show loaded={list}>
        {(l) => (
          <Scroll>
            <table data-testid="systems">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Risk tier</th>
                  <th scope="col">Lifecycle</th>
                  <th scope="col">Owner</th>
                  <th scope="col">Purpose</th>
                  <th scope="col">Updated</th>
                </tr>
              </thead>
              <tbody>
                {l.systems.map((s) => (
                  <tr key={s.systemId}>
                    <th scope="row">
                      <a href={systemHref(s.systemId)}>{s.name}</a>
                    </th>
                    <td>
                      <Badge kind={s.riskLevel}>{s.riskLevel}</Badge>
                    </td>
                    <td>{s.lifecycleStage}</td>
                    <td>{s.owner}</td>
                    <td>{s.purpose}</td>
                    <td>{when(s.updatedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Scroll>
        )}
      </Show>
      {session.can.write ? (
        <form
          className="card"
          aria-labelledby="system-form"
          onSubmit={async (event) => {
            event.preventDefault();
            if (await add.run(() => addAiSystem(session, form), 'System added')) setForm(empty);
          }}
        >
          <h2 id="system-form">Add an AI system</h2>
          <div className="filters">
            <Field label="Name">
              {(id) => (
                <input
                  id={id}
                  required
                  value={form.name}
                  onChange={(e) => setForm({ ...form, name: e.target.value })}
                />
              )}
            </Field>
            <Field label="Owner">
              {(id) => (
                <input
                  id={id}
                  required
                  value={form.owner}
                  onChange={(e) => setForm({ ...form, owner: e.target.value })}
                />
              )}
            </Field>
            <Field label="Purpose">
              {(id) => (
                <input
                  id={id}
                  required
                  value={form.purpose}
                  onChange={(e) => setForm({ ...form, purpose: e.target.value })}
                />
              )}
            </Field>
            <Field label="Risk">
              {(id) => (
                <select
                  id={id}
                  value={form.riskLevel}
                  onChange={(e) => setForm({ ...form, riskLevel: e.target.value })}
                >
                  {RISKS.map((r) => (
                    <option key={r}>{r}</option>
                  ))}
                </select>
              )}
            </Field>
            <Field label="Stage">
              {(id) => (
                <select
                  id={id}
                  value={form.lifecycleStage}
                  onChange={(e) => setForm({ ...form, lifecycleStage: e.target.value })}
                >
                  {STAGES.map((s) => (
                    <option key={s}>{s}</option>
                  ))}
                </select>
              )}
            </Field>
          </div>
          <button type="submit" disabled={add.busy}>
            Add system
          </button>
          {add.message}
        </form>
      ) : null}
    </>
  );
}

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

export function ExportsView() {
  const session = useSession();
  const snapshots = useSnapshots(0, 200);
  const frameworks = useOrgFrameworks();
  const [snapshotId, setSnapshotId] = useState('');
  const [frameworkId, setFrameworkId] = useState('iso-42001');
  const [state, setState] = useState<{ text: string; error: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  if (!session.can.export) {
    return (
      <>
        <h1>Exports</h1>
        {session.kind === 'key' ? (
          <p>This API key has no export scope: ask for a key with the export scope to download statements.</p>
        ) : (
          <p>
            Your role in this organization does not include exports: an owner or an auditor can download them.
          </p>
        )}
        <SoaChecksPanel />
      </>
    );
  }
  const fetchFile = async (kind: 'soa' | 'oscal', query: Record<string, string>, fallback: string) => {
    setBusy(true);
    setState(null);
    try {
      const name = download(await fetchExport(session, kind, query), fallback);
      setState({ text: `Downloaded ${name}`, error: false });
    } catch (error) {
      setState({ text: (error as Error).message, error: true });
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <h1>Exports</h1>
      <section className="card" aria-labelledby="soa-heading">
        <h2 id="soa-heading">Statement of Applicability (ISO/IEC 42001)</h2>
        <Field label="As of">
          {(id) => (
            <select id={id} value={snapshotId} onChange={(e) => setSnapshotId(e.target.value)}>
              <option value="">now</option>
              {(snapshots.data?.snapshots ?? []).map((s) => (
                <option key={s.snapshotId} value={s.snapshotId}>
                  snapshot {s.label} ({when(s.createdAt)})
                </option>
              ))}
            </select>
          )}
        </Field>
        <div className="buttons">
          {['json', 'csv', 'markdown', 'pdf'].map((format) => (
            <button
              key={format}
              type="button"
              disabled={busy}
              onClick={() =>
                fetchFile('soa', { format, ...(snapshotId ? { snapshotId } : {}) }, `soa.${format}`)
              }
            >
              SoA {label(format)}
            </button>
          ))}
        </div>
      </section>
      <SoaChecksPanel />
      <section className="card" aria-labelledby="oscal-heading">
        <h2 id="oscal-heading">OSCAL package</h2>
        <Field label="Framework">
          {(id) => (
            <select id={id} value={frameworkId} onChange={(e) => setFrameworkId(e.target.value)}>
              {(frameworks.data?.frameworks ?? [{ frameworkId: 'iso-42001', name: 'ISO/IEC 42001' }]).map(
                (f) => (
                  <option key={f.frameworkId} value={f.frameworkId}>
                    {f.name}
                  </option>
                ),
              )}
            </select>
          )}
        </Field>
        <div className="buttons">
          <button
            type="button"
            disabled={busy}
            onClick={() => fetchFile('oscal', { frameworkId }, 'oscal.json')}
          >
            OSCAL json
          </button>
          <button
            type="button"
            disabled={busy}
            onClick={() => fetchFile('oscal', { frameworkId, format: 'zip' }, 'oscal.zip')}
          >
            OSCAL zip
          </button>
        </div>
      </section>
      <p role={state?.error ? 'alert' : 'status'} className={state?.error ? 'error' : 'ok'}>
        {busy ? 'Preparing…' : (state?.text ?? '')}
      </p>
    </>
  );
}
