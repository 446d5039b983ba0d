import { useState } from 'react';
import type { SearchResult } from '../api';
import { frameworkHref } from '../links';
import { searchRequirements, useConflicts, useCoverage, useFrameworkCoverage } from '../resources/cte';
import { useOrgFrameworks } from '../resources/frameworks';
import { Badge, Bar, ErrorText, Field, label, pct, Scroll, Show, useSession } from '../ui';

/** Cell shade for a coverage in 0..1: light to dark blue, with text dark enough on each (contrast). */
const shade = (value: number) => `heat-${Math.min(5, Math.floor(value * 5.999))}`;

export function CoverageView() {
  const report = useCoverage();
  const [cell, setCell] = useState<{ from: string; to: string; coverage: number } | null>(null);
  return (
    <>
      <h1>Coverage</h1>
      <Show loaded={report}>
        {(r) => {
          const ids = r.frameworks.map((f) => f.frameworkId);
          const pair = new Map(r.pairwise.map((p) => [`${p.from}>${p.to}`, p.coverage]));
          return (
            <div className="grid">
              <section className="card" aria-labelledby="cov-heading">
                <h2 id="cov-heading">The organization's coverage per framework</h2>
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Framework</th>
                      <th scope="col">Coverage</th>
                      <th scope="col">Covered / partial / uncovered</th>
                    </tr>
                  </thead>
                  <tbody>
                    {r.frameworks.map((f) => (
                      <tr key={f.frameworkId}>
                        <th scope="row">
                          <a href={frameworkHref(f.frameworkId)}>{f.frameworkId}</a>
                        </th>
                        <td className="num">
                          {pct(f.coverage)} <Bar value={f.coverage === null ? null : f.coverage * 100} />
                        </td>
                        <td className="num">
                          {f.covered} / {f.partial} / {f.uncovered}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </section>
              <section className="card wide" aria-labelledby="heat-heading">
                <h2 id="heat-heading">Pairwise heatmap</h2>
                <p className="muted">
                  Row A, column B: how much of B is covered once every requirement of A is implemented. Choose
                  a cell to see what carries over.
                </p>
                <Scroll>
                  <table className="heatmap" data-testid="heatmap">
                    <thead>
                      <tr>
                        <th scope="col">from \ to</th>
                        {ids.map((id) => (
                          <th scope="col" key={id}>
                            {id}
                          </th>
                        ))}
                      </tr>
                    </thead>
                    <tbody>
                      {ids.map((from) => (
                        <tr key={from}>
                          <th scope="row">{from}</th>
                          {ids.map((to) => {
                            const value = from === to ? 1 : pair.get(`${from}>${to}`);
                            return (
                              <td key={to} className={value === undefined ? '' : shade(value)}>
                                {value === undefined || from === to ? (
                                  <span className="muted">{from === to ? '—' : ''}</span>
                                ) : (
                                  <button
                                    type="button"
                                    aria-label={`${from} to ${to}: ${pct(value)}`}
                                    aria-pressed={cell?.from === from && cell.to === to}
                                    onClick={() => setCell({ from, to, coverage: value })}
                                  >
                                    {pct(value, 0)}
                                  </button>
                                )}
                              </td>
                            );
                          })}
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </Scroll>
                {cell ? <CarryOver {...cell} /> : null}
              </section>
            </div>
          );
        }}
      </Show>
    </>
  );
}

function CarryOver({ from, to, coverage }: { from: string; to: string; coverage: number }) {
  const detail = useFrameworkCoverage(to);
  return (
    <div className="panel" data-testid="carry-over">
      <h3>
        {from} → {to}: {pct(coverage)}
      </h3>
      <p>
        With all of {from} implemented, {pct(coverage)} of {to} would be covered. Today these requirements of{' '}
        {to} are covered or partial through the organization's records:
      </p>
      <Show loaded={detail}>
        {(d) => {
          const reached = d.requirements.filter((r) => r.status !== 'uncovered');
          return reached.length === 0 ? (
            <p>None yet.</p>
          ) : (
            <ul>
              {reached.slice(0, 50).map((r) => (
                <li key={r.requirementId}>
                  <a href={frameworkHref(to, r.requirementId)}>{r.requirementId}</a> {r.title}{' '}
                  <Badge kind={r.status}>{r.status}</Badge>{' '}
                  <span className="muted">by {r.coveredBy.join(', ') || '—'}</span>
                </li>
              ))}
            </ul>
          );
        }}
      </Show>
    </div>
  );
}

export function ConflictsView() {
  const [filters, setFilters] = useState({ frameworkId: '', kind: '', severity: '' });
  const list = useConflicts(filters);
  // The org's frameworks as the API lists them: built-in, clause frameworks and imported catalogs alike.
  const frameworks = useOrgFrameworks();
  return (
    <>
      <h1>Conflicts</h1>
      <div className="filters">
        <Field label="Framework">
          {(id) => (
            <select
              id={id}
              value={filters.frameworkId}
              onChange={(e) => setFilters({ ...filters, frameworkId: e.target.value })}
            >
              <option value="">any</option>
              {(frameworks.data?.frameworks ?? []).map((f) => (
                <option key={f.frameworkId} value={f.frameworkId}>
                  {f.frameworkId}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Kind">
          {(id) => (
            <select
              id={id}
              value={filters.kind}
              onChange={(e) => setFilters({ ...filters, kind: e.target.value })}
            >
              <option value="">any</option>
              <option value="contradiction">contradiction</option>
              <option value="tension">tension</option>
              <option value="overlap">overlap</option>
            </select>
          )}
        </Field>
        <Field label="Severity">
          {(id) => (
            <select
              id={id}
              value={filters.severity}
              onChange={(e) => setFilters({ ...filters, severity: e.target.value })}
            >
              <option value="">any</option>
              <option value="high">high</option>
              <option value="medium">medium</option>
              <option value="low">low</option>
            </select>
          )}
        </Field>
      </div>
      <Show loaded={list}>
        {(l) => (
          <ul className="conflicts" data-testid="conflicts">
            {l.conflicts.map((c) => (
              <li key={c.conflictId} className="card">
                <h2>
                  <Badge kind={c.severity}>{c.severity}</Badge> <Badge kind={c.kind}>{c.kind}</Badge>{' '}
                  {c.conflictId}
                </h2>
                <p>{c.description}</p>
                <ul>
                  {c.requirements.map((r) => (
                    <li key={`${r.frameworkId}/${r.requirementId}/${r.parameter ?? ''}`}>
                      <a href={frameworkHref(r.frameworkId, r.requirementId)}>
                        {r.frameworkId} {r.requirementId}
                      </a>
                      {r.parameter ? ` · ${label(r.parameter)}` : ''}
                    </li>
                  ))}
                </ul>
                <p>
                  <strong>Resolution:</strong> {c.resolution}
                </p>
              </li>
            ))}
          </ul>
        )}
      </Show>
    </>
  );
}

export function SearchView() {
  const session = useSession();
  const [query, setQuery] = useState('');
  const [state, setState] = useState<{
    results?: SearchResult['results'];
    model?: string;
    error?: Error;
  }>({});
  return (
    <>
      <h1>Semantic search</h1>
      <search>
        <form
          className="filters"
          onSubmit={async (event) => {
            event.preventDefault();
            try {
              const r = await searchRequirements(session, query);
              setState({ results: r.results, model: r.model });
            } catch (error) {
              setState({ error: error as Error });
            }
          }}
        >
          <Field label="Search every framework">
            {(id) => (
              <input
                id={id}
                type="search"
                required
                value={query}
                onChange={(e) => setQuery(e.target.value)}
              />
            )}
          </Field>
          <button type="submit">Search</button>
        </form>
      </search>
      {state.error ? <ErrorText error={state.error} /> : null}
      {state.results ? (
        <ol className="results" data-testid="search-results">
          {state.results.map((r) => (
            <li key={`${r.frameworkId}/${r.requirementId}`}>
              <a href={frameworkHref(r.frameworkId, r.requirementId)}>
                {r.frameworkId} {r.requirementId}
              </a>{' '}
              {r.title} <span className="muted">distance {r.distance.toFixed(3)}</span>
            </li>
          ))}
        </ol>
      ) : null}
      {state.model ? <p className="muted">model: {state.model}</p> : null}
    </>
  );
}
