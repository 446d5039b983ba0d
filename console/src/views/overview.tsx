import { useState } from 'react';
import type { OrgFramework } from '../api';
import { HistoryChart } from '../chart';
import { epochHref, frameworkHref, scopeHref } from '../links';
import { useLatestAttestations } from '../resources/attestations';
import { useGaps } from '../resources/cte';
import { useExpiringEvidence } from '../resources/evidence';
import {
  type HistoryInterval,
  useFrameworkCompliance,
  useFrameworkHistory,
  useOrgFrameworks,
} from '../resources/frameworks';
import { useApplicabilityProfile } from '../resources/profile';
import { Badge, Bar, Pager, pct, Scroll, Show, score, useSession, when } from '../ui';

export function FrameworkTable({ frameworks }: { frameworks: OrgFramework[] }) {
  return (
    <Scroll>
      <table>
        <caption>Every framework</caption>
        <thead>
          <tr>
            <th scope="col">Framework</th>
            <th scope="col">Score</th>
            <th scope="col">Direct score</th>
            <th scope="col">Coverage</th>
            <th scope="col">Direct / inferred / none</th>
          </tr>
        </thead>
        <tbody>
          {frameworks.map((fw) => (
            <tr key={fw.frameworkId} data-framework={fw.frameworkId}>
              <th scope="row">
                <a href={frameworkHref(fw.frameworkId)}>{fw.name}</a>
              </th>
              <td className="num">
                <span className="fw-score">{score(fw.score)}</span> <Bar value={fw.score} />
              </td>
              <td className="num">{score(fw.directScore)}</td>
              <td className="num">{pct(fw.coverage)}</td>
              <td className="num">
                {fw.assessed.direct} / {fw.assessed.inferred} / {fw.assessed.none}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Scroll>
  );
}

export function ScorePanel({ frameworkId }: { frameworkId: string }) {
  const [interval, setInterval] = useState<HistoryInterval>('daily');
  const compliance = useFrameworkCompliance(frameworkId);
  const history = useFrameworkHistory(frameworkId, interval);
  return (
    <section aria-labelledby="score-heading" className="card">
      <h2 id="score-heading">Score</h2>
      <Show loaded={compliance}>
        {(c) => (
          <div className="score-row">
            <p className="big" data-testid="score">
              {score(c.score)}
            </p>
            <p className="muted">
              {c.counts.implemented} implemented · {c.counts.inProgress} in progress · {c.counts.notStarted}{' '}
              not started · {c.counts.notApplicable} not applicable
              <br />
              direct records only: {score(c.directScore)}
            </p>
          </div>
        )}
      </Show>
      <fieldset className="segmented">
        <legend>History</legend>
        {(['daily', 'weekly', 'monthly'] as const).map((name) => (
          <label key={name}>
            <input
              type="radio"
              name="interval"
              value={name}
              checked={interval === name}
              onChange={() => setInterval(name)}
            />
            {name}
          </label>
        ))}
      </fieldset>
      <Show loaded={history}>
        {(h) => <HistoryChart points={h.points} title={`Score history (${interval})`} />}
      </Show>
      <Show loaded={compliance}>
        {(c) =>
          c.byDomain.length > 0 ? (
            <Scroll>
              <table className="domains">
                <caption>By domain</caption>
                <thead>
                  <tr>
                    <th scope="col">Domain</th>
                    <th scope="col">Score</th>
                    <th scope="col">Requirements</th>
                  </tr>
                </thead>
                <tbody>
                  {c.byDomain.map((d) => (
                    <tr key={d.domain}>
                      <th scope="row">
                        {d.domain} {d.domainTitle}
                      </th>
                      <td className="num">
                        {score(d.score)} <Bar value={d.score} />
                      </td>
                      <td className="num">{d.controlCount}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </Scroll>
          ) : null
        }
      </Show>
    </section>
  );
}

export function Overview() {
  const session = useSession();
  const frameworks = useOrgFrameworks();
  const gaps = useGaps('iso-42001');
  const attestations = useLatestAttestations(5);
  return (
    <>
      <h1>Overview · {session.orgName}</h1>
      <ScopePrompt />
      <div className="grid">
        <ScorePanel frameworkId="iso-42001" />
        <section aria-labelledby="gaps-heading" className="card">
          <h2 id="gaps-heading">Critical gaps (ISO/IEC 42001)</h2>
          <Show loaded={gaps}>
            {(g) => {
              const critical = g.gaps.filter((gap) => gap.priority === 'critical');
              return critical.length === 0 ? (
                <p>No critical gap.</p>
              ) : (
                <ul className="gap-list" data-testid="critical-gaps">
                  {critical.slice(0, 5).map((gap) => (
                    <li key={gap.controlId}>
                      <a href={frameworkHref('iso-42001', gap.controlId)}>{gap.controlId}</a>{' '}
                      <Badge kind={gap.status}>{gap.status.replace(/_/g, ' ')}</Badge>
                      <p>{gap.recommendation}</p>
                    </li>
                  ))}
                  {critical.length > 5 ? (
                    <li>
                      <a href={frameworkHref('iso-42001')}>and {critical.length - 5} more</a>
                    </li>
                  ) : null}
                </ul>
              );
            }}
          </Show>
        </section>
        <section aria-labelledby="fw-heading" className="card wide">
          <h2 id="fw-heading">Frameworks</h2>
          <Show loaded={frameworks}>{(f) => <FrameworkTable frameworks={f.frameworks} />}</Show>
        </section>
        <ExpiringEvidence />
        <section aria-labelledby="att-heading" className="card">
          <h2 id="att-heading">Latest attestations</h2>
          <Show loaded={attestations}>
            {(a) =>
              a.attestations.length === 0 ? (
                <p>No attestation yet.</p>
              ) : (
                <ul>
                  {a.attestations.map((item) => (
                    <li key={item.attestationId}>
                      <Badge kind={item.level}>{item.level}</Badge> {when(item.timestamp)} · epoch{' '}
                      <a href={epochHref(item.epochId)}>{item.epochId}</a> · {item.controlIds.join(', ')}
                    </li>
                  ))}
                </ul>
              )
            }
          </Show>
        </section>
      </div>
    </>
  );
}

/** Until the organization has an applicability profile, a prompt to give one: its EU AI Act scope is unknown. */
function ScopePrompt() {
  const profile = useApplicabilityProfile();
  if (profile.data?.profile !== null) return null;
  return (
    <div className="prompt" role="note" data-testid="scope-prompt">
      <p>
        <a href={scopeHref()}>
          <strong>Tell comply what your organization is under the EU AI Act</strong>
        </a>
      </p>
      <p className="muted">
        Provider, deployer, importer…: the requirements that bind none of its roles are then excluded, each
        with its reason, and leave its gaps.
      </p>
    </div>
  );
}

/** Evidence that expired in the last 30 days or expires in the next 30, soonest first (paged by the API). */
function ExpiringEvidence() {
  const [offset, setOffset] = useState(0);
  const list = useExpiringEvidence(offset, 8);
  return (
    <section aria-labelledby="expiring-heading" className="card">
      <h2 id="expiring-heading">Evidence expiring (past and next 30 days)</h2>
      <Show loaded={list}>
        {(l) =>
          l.total === 0 ? (
            <p>No evidence expires around now.</p>
          ) : (
            <>
              <ul data-testid="expiring">
                {l.evidence.map((e) => (
                  <li key={e.evidenceId}>
                    {e.expiresAt.slice(0, 10)}{' '}
                    <a href={frameworkHref(e.frameworkId, e.requirementId)}>
                      {e.frameworkId} {e.requirementId}
                    </a>{' '}
                    {e.title} {e.expired ? <Badge kind="expired">expired</Badge> : null}
                  </li>
                ))}
              </ul>
              <Pager
                offset={offset}
                limit={8}
                total={l.total}
                onChange={setOffset}
                label="Expiring evidence"
              />
            </>
          )
        }
      </Show>
    </section>
  );
}
