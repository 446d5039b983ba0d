import { useState } from 'react';
import { fetchExport } from '../resources/exports';
import { useOrgFrameworks } from '../resources/frameworks';
import { useSnapshots } from '../resources/snapshots';
import { download, Field, label, useSession, when } from '../ui';
import { SoaChecksPanel } from './soa-checks';

/** Downloads: the Statement of Applicability (now or as of a snapshot) and the OSCAL package of a framework. */
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
