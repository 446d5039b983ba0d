import { useState } from 'react';
import { frameworkHref } from '../links';
import { useCoverage, useFrameworkCoverage } from '../resources/cte';
import { Badge, Bar, pct, Scroll, Show } from '../ui';

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
