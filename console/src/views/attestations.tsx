import { useState } from 'react';
import { systemHref } from '../links';
import { type Verification, verifyEpoch } from '../merkle';
import { epochRecords, useAttestations, useEpoch } from '../resources/attestations';
import { useAiSystems } from '../resources/systems';
import { Badge, ErrorText, Field, Scroll, Show, useSession, when } from '../ui';

const PAGE = 50;
const ANY_SYSTEM = { riskLevel: '', lifecycleStage: '' };

export function AttestationsView({ epochId: initialEpoch }: { epochId?: string }) {
  const [filters, setFilters] = useState({ level: '', epochId: initialEpoch ?? '', from: '', to: '' });
  const [applied, setApplied] = useState(filters);
  // Cursor paging: the stack holds the cursor of every page before the current one.
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const page = useAttestations(applied, PAGE, cursor);
  // Each attestation's system by name, linked to its page (the API stores the system's id).
  const systems = useAiSystems(ANY_SYSTEM);
  const systemNames = new Map((systems.data?.systems ?? []).map((s) => [s.systemId, s.name]));
  return (
    <>
      <h1>Attestations</h1>
      <form
        className="filters"
        onSubmit={(event) => {
          event.preventDefault();
          setApplied(filters);
          setCursors([undefined]);
        }}
      >
        <Field label="Level">
          {(id) => (
            <select
              id={id}
              value={filters.level}
              onChange={(e) => setFilters({ ...filters, level: e.target.value })}
            >
              <option value="">any</option>
              <option value="L0">L0 (self-reported)</option>
              <option value="L2">L2 (signed)</option>
            </select>
          )}
        </Field>
        <Field label="Epoch">
          {(id) => (
            <input
              id={id}
              value={filters.epochId}
              onChange={(e) => setFilters({ ...filters, epochId: e.target.value })}
            />
          )}
        </Field>
        <Field label="From">
          {(id) => (
            <input
              id={id}
              type="datetime-local"
              value={filters.from}
              onChange={(e) => setFilters({ ...filters, from: e.target.value })}
            />
          )}
        </Field>
        <Field label="To">
          {(id) => (
            <input
              id={id}
              type="datetime-local"
              value={filters.to}
              onChange={(e) => setFilters({ ...filters, to: e.target.value })}
            />
          )}
        </Field>
        <button type="submit">Apply</button>
      </form>
      {applied.epochId ? <EpochPanel key={applied.epochId} epochId={applied.epochId} /> : null}
      <Show loaded={page}>
        {(p) => (
          <>
            <Scroll>
              <table data-testid="attestations">
                <thead>
                  <tr>
                    <th scope="col">Time</th>
                    <th scope="col">Level</th>
                    <th scope="col">Epoch</th>
                    <th scope="col">System</th>
                    <th scope="col">Controls</th>
                    <th scope="col">Content hash</th>
                  </tr>
                </thead>
                <tbody>
                  {p.attestations.map((a) => (
                    <tr key={a.attestationId}>
                      <td>{when(a.timestamp)}</td>
                      <td>
                        <Badge kind={a.level}>{a.level}</Badge>
                      </td>
                      <td>
                        <button
                          type="button"
                          className="link"
                          onClick={() => {
                            const next = { ...filters, epochId: a.epochId };
                            setFilters(next);
                            setApplied(next);
                            setCursors([undefined]);
                          }}
                        >
                          {a.epochId}
                        </button>
                      </td>
                      <td>
                        {a.systemId === null ? (
                          '—'
                        ) : (
                          <a href={systemHref(a.systemId)}>{systemNames.get(a.systemId) ?? a.systemId}</a>
                        )}
                      </td>
                      <td>{a.controlIds.join(', ')}</td>
                      <td>
                        <code>{a.contentHash.slice(0, 16)}…</code>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </Scroll>
            <nav className="pager" aria-label="Attestation pages">
              <button
                type="button"
                disabled={cursors.length === 1}
                onClick={() => setCursors(cursors.slice(0, -1))}
              >
                Previous
              </button>
              <span>page {cursors.length}</span>
              <button
                type="button"
                disabled={!p.nextCursor}
                onClick={() => p.nextCursor && setCursors([...cursors, p.nextCursor])}
              >
                Next
              </button>
            </nav>
          </>
        )}
      </Show>
    </>
  );
}

function EpochPanel({ epochId }: { epochId: string }) {
  const session = useSession();
  const epoch = useEpoch(epochId);
  const [result, setResult] = useState<{ verification?: Verification; error?: Error; busy?: boolean }>({});
  return (
    <section className="card" aria-labelledby="epoch-heading" data-testid="epoch">
      <h2 id="epoch-heading">Epoch {epochId}</h2>
      <Show loaded={epoch}>
        {(e) => (
          <>
            <dl className="facts">
              <dt>Attestations</dt>
              <dd>
                {e.count} ({e.levels.L0} L0, {e.levels.L2} L2)
              </dd>
              <dt>Span</dt>
              <dd>
                {when(e.firstTimestamp)} – {when(e.lastTimestamp)}
              </dd>
              <dt>Merkle root</dt>
              <dd>
                <code data-testid="merkle-root">{e.merkleRoot}</code>
              </dd>
            </dl>
            <button
              type="button"
              disabled={result.busy}
              onClick={async () => {
                setResult({ busy: true });
                try {
                  setResult({ verification: await verifyEpoch(await epochRecords(session, epochId)) });
                } catch (error) {
                  setResult({ error: error as Error });
                }
              }}
            >
              Verify in the browser
            </button>
            {result.error ? <ErrorText error={result.error} /> : null}
            {result.verification ? (
              <VerificationResult
                verification={result.verification}
                expected={e.merkleRoot}
                count={e.count}
              />
            ) : null}
          </>
        )}
      </Show>
    </section>
  );
}

function VerificationResult({
  verification,
  expected,
  count,
}: {
  verification: Verification;
  expected: string;
  count: number;
}) {
  const ok =
    verification.root === expected && verification.mismatched.length === 0 && verification.count === count;
  return (
    <div role="status" className={ok ? 'ok' : 'error'} data-testid="verification">
      <p>
        {ok ? 'Verified: ' : 'Does not match: '}
        the root recomputed from {verification.count} records is <code>{verification.root}</code>
      </p>
      {verification.mismatched.length > 0 ? (
        <p>Records whose fields do not hash to their content hash: {verification.mismatched.join(', ')}</p>
      ) : null}
    </div>
  );
}
