import { useState } from 'react';
import type { AuditEvent, AuditLog, AuditVerification } from '../api';
import { type AuditFilters, fetchAuditLog, verifyAuditLog } from '../resources/audit';
import { Badge, ErrorText, Field, Scroll, Show, useLoad, useSession, when } from '../ui';

const PAGE = 50;
const NO_FILTERS: AuditFilters = { actorId: '', action: '', resourceType: '', from: '', to: '' };

/** A changed field's value as text: strings as they are, anything else as JSON, long values cut. */
function shown(value: unknown): string {
  if (value === null || value === undefined) return '—';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

/**
 * Who changed what, newest first: the org's hash-chained audit trail (owners, auditors, platform
 * administrators), or the platform's own log of sign-ins for a platform administrator or key.
 */
export function AuditTrailView() {
  const session = useSession();
  const [platform, setPlatform] = useState(false);
  const [filters, setFilters] = useState(NO_FILTERS);
  const [applied, setApplied] = useState(NO_FILTERS);
  const first = useLoad(
    () => fetchAuditLog(session, platform, applied, PAGE),
    [session.orgId, platform, applied],
  );
  // "Load more" appends older pages to the first page they follow; a new first page (other filters, a change)
  // starts again.
  const [more, setMore] = useState<{ after?: AuditLog; pages: AuditLog[] }>({ pages: [] });
  const [loadingMore, setLoadingMore] = useState(false);
  const [moreError, setMoreError] = useState<Error | undefined>();
  const older = more.after === first.data ? more.pages : [];
  const pages = first.data ? [first.data, ...older] : [];
  const events = pages.flatMap((p) => p.events);
  const nextCursor = pages.length ? pages[pages.length - 1].nextCursor : null;
  const seen = (pick: (e: AuditEvent) => [string, string]) => new Map(events.map(pick));
  const actors = seen((e) => [e.actor.id, `${e.actor.name} (${e.actor.type})`]);
  const actions = seen((e) => [e.action, e.action]);
  const resourceTypes = seen((e) => [e.resource.type, e.resource.type]);
  const logName = platform ? 'the platform' : session.orgName;
  return (
    <>
      <h1>Audit trail · {logName}</h1>
      <p className="muted">
        Every change, by a person or a key, newest first. Each event carries the hash of the one before it, so
        an altered or missing event breaks the chain.
      </p>
      {session.platform ? (
        <fieldset className="segmented">
          <legend>Log</legend>
          <label>
            <input type="radio" name="log" checked={!platform} onChange={() => setPlatform(false)} />{' '}
            {session.orgName}
          </label>
          <label>
            <input type="radio" name="log" checked={platform} onChange={() => setPlatform(true)} /> platform
            (sign-ins)
          </label>
        </fieldset>
      ) : null}
      <Verify key={String(platform)} platform={platform} />
      <form
        className="filters"
        aria-label="Filter the audit trail"
        onSubmit={(event) => {
          event.preventDefault();
          setApplied(filters);
        }}
      >
        <Field label="Actor">
          {(id) => (
            <>
              <input
                id={id}
                list={`${id}-options`}
                placeholder="any"
                value={filters.actorId}
                onChange={(e) => setFilters({ ...filters, actorId: e.target.value })}
              />
              <datalist id={`${id}-options`}>
                {[...actors].map(([value, text]) => (
                  <option key={value} value={value}>
                    {text}
                  </option>
                ))}
              </datalist>
            </>
          )}
        </Field>
        <Field label="Action">
          {(id) => (
            <>
              <input
                id={id}
                list={`${id}-options`}
                placeholder="any"
                value={filters.action}
                onChange={(e) => setFilters({ ...filters, action: e.target.value })}
              />
              <datalist id={`${id}-options`}>
                {[...actions.keys()].map((value) => (
                  <option key={value} value={value} />
                ))}
              </datalist>
            </>
          )}
        </Field>
        <Field label="Resource type">
          {(id) => (
            <>
              <input
                id={id}
                list={`${id}-options`}
                placeholder="any"
                value={filters.resourceType}
                onChange={(e) => setFilters({ ...filters, resourceType: e.target.value })}
              />
              <datalist id={`${id}-options`}>
                {[...resourceTypes.keys()].map((value) => (
                  <option key={value} value={value} />
                ))}
              </datalist>
            </>
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
        <button
          type="button"
          onClick={() => {
            setFilters(NO_FILTERS);
            setApplied(NO_FILTERS);
          }}
        >
          Clear
        </button>
      </form>
      <Show loaded={first}>
        {() => (
          <>
            {events.length === 0 ? (
              <p>No event matches.</p>
            ) : (
              <Scroll>
                <table data-testid="audit-events">
                  <caption>
                    {events.length} event{events.length === 1 ? '' : 's'}, newest first
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col">#</th>
                      <th scope="col">Time</th>
                      <th scope="col">Actor</th>
                      <th scope="col">Action</th>
                      <th scope="col">Resource</th>
                      <th scope="col">Changes</th>
                    </tr>
                  </thead>
                  <tbody>
                    {events.map((e) => (
                      <tr key={e.eventId} data-seq={e.seq} data-action={e.action}>
                        <td className="num">{e.seq}</td>
                        <td className="num">{when(e.at)}</td>
                        <th scope="row">
                          {e.actor.name} <Badge kind={`actor-${e.actor.type}`}>{e.actor.type}</Badge>
                        </th>
                        <td>
                          <code>{e.action}</code>
                        </td>
                        <td>
                          {e.resource.type} <code>{e.resource.id}</code>
                        </td>
                        <td>
                          {e.changes && Object.keys(e.changes).length > 0 ? (
                            <ul className="changes">
                              {Object.entries(e.changes).map(([field, { from, to }]) => (
                                <li key={field}>
                                  {field}: {shown(from)} → {shown(to)}
                                </li>
                              ))}
                            </ul>
                          ) : (
                            '—'
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </Scroll>
            )}
            {nextCursor ? (
              <button
                type="button"
                disabled={loadingMore}
                onClick={async () => {
                  setLoadingMore(true);
                  setMoreError(undefined);
                  try {
                    const page = await fetchAuditLog(session, platform, applied, PAGE, nextCursor);
                    setMore({ after: first.data, pages: [...older, page] });
                  } catch (error) {
                    setMoreError(error as Error);
                  } finally {
                    setLoadingMore(false);
                  }
                }}
              >
                Load more
              </button>
            ) : events.length > 0 ? (
              <p className="muted">No older events.</p>
            ) : null}
            {moreError ? <ErrorText error={moreError} /> : null}
          </>
        )}
      </Show>
    </>
  );
}

/** "Verify chain": the server walks the whole chain and names the first event that breaks it. */
function Verify({ platform }: { platform: boolean }) {
  const session = useSession();
  const [result, setResult] = useState<AuditVerification | Error | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <section className="card" aria-labelledby="verify-heading">
      <h2 id="verify-heading">Integrity</h2>
      <button
        type="button"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          setResult(null);
          try {
            setResult(await verifyAuditLog(session, platform));
          } catch (error) {
            setResult(error as Error);
          } finally {
            setBusy(false);
          }
        }}
      >
        Verify chain
      </button>
      <div role="status" data-testid="audit-verification">
        {busy ? (
          <p className="muted">Verifying…</p>
        ) : result instanceof Error ? (
          <p className="error">{result.message}</p>
        ) : result === null ? null : result.valid ? (
          <p className="ok">
            Chain valid: {result.events} event{result.events === 1 ? '' : 's'}, head hash{' '}
            <code>{result.headHash ?? '—'}</code>
          </p>
        ) : (
          <p className="error">
            Chain broken at event #{result.firstInvalid?.seq} ({result.firstInvalid?.eventId})
            {result.firstInvalid?.reason ? `: ${result.firstInvalid.reason}` : ''}; {result.events} events
            checked.
          </p>
        )}
      </div>
    </section>
  );
}
