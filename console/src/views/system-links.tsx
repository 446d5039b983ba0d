import { useState } from 'react';
import type { Risk } from '../api';
import { epochHref, frameworkHref, riskHref } from '../links';
import { useSystemAttestations } from '../resources/attestations';
import { Badge, type Loaded, label, Scroll, Show, when } from '../ui';

/** What an AI system's page links to: the risks that name it, the gaps they leave, and its attestations. */

type RiskLoad = Loaded<{ risks: Risk[] }>;

export function SystemRisks({ risks }: { risks: RiskLoad }) {
  return (
    <section className="card wide" aria-labelledby="system-risks">
      <h2 id="system-risks">Risks</h2>
      <Show loaded={risks}>
        {(r) =>
          r.risks.length === 0 ? (
            <p>No risk of the register names this system.</p>
          ) : (
            <Scroll>
              <table data-testid="system-risks">
                <thead>
                  <tr>
                    <th scope="col">Risk</th>
                    <th scope="col">Residual</th>
                    <th scope="col">State</th>
                  </tr>
                </thead>
                <tbody>
                  {r.risks.map((risk) => (
                    <tr key={risk.riskId}>
                      <th scope="row">
                        <a href={riskHref(risk.riskId)}>{risk.title}</a>
                      </th>
                      <td>
                        <Badge kind={`level-${risk.residual.level}`}>
                          {risk.residual.level} ({risk.residual.score})
                        </Badge>
                      </td>
                      <td>
                        <Badge kind={`risk-${risk.state}`}>{label(risk.state)}</Badge>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </Scroll>
          )
        }
      </Show>
    </section>
  );
}

interface SystemGap {
  frameworkId: string;
  requirementId: string;
  status: string;
  risks: { riskId: string; title: string }[];
}

/** The requirements that treat the system's risks and are not implemented yet, each once, with its risks. */
function gapsOf(risks: Risk[]): SystemGap[] {
  const gaps = new Map<string, SystemGap>();
  for (const risk of risks) {
    for (const r of risk.treatmentProgress.requirements) {
      if (r.status === 'implemented') continue;
      const key = `${r.frameworkId}\u001f${r.requirementId}`;
      const gap = gaps.get(key) ?? { ...r, risks: [] };
      gap.risks.push({ riskId: risk.riskId, title: risk.title });
      gaps.set(key, gap);
    }
  }
  return [...gaps.values()];
}

export function SystemGaps({ risks }: { risks: RiskLoad }) {
  return (
    <section className="card wide" aria-labelledby="system-gaps">
      <h2 id="system-gaps">Gaps that concern it</h2>
      <p className="muted">The requirements that treat its risks and are not implemented yet.</p>
      <Show loaded={risks}>
        {(r) => {
          const gaps = gapsOf(r.risks);
          if (gaps.length === 0) {
            return (
              <p>
                {r.risks.some((risk) => risk.treatment)
                  ? 'Every requirement that treats its risks is implemented.'
                  : 'No risk that names it has a treatment yet.'}
              </p>
            );
          }
          return (
            <ul className="gap-list" data-testid="system-gaps">
              {gaps.map((gap) => (
                <li key={`${gap.frameworkId}/${gap.requirementId}`}>
                  <span className="muted">{gap.frameworkId}</span>{' '}
                  <a href={frameworkHref(gap.frameworkId, gap.requirementId)}>{gap.requirementId}</a>{' '}
                  <Badge kind={gap.status}>{label(gap.status)}</Badge>{' '}
                  <span className="muted">
                    treats{' '}
                    {gap.risks.map((risk, i) => (
                      <span key={risk.riskId}>
                        {i > 0 ? ', ' : ''}
                        <a href={riskHref(risk.riskId)}>{risk.title}</a>
                      </span>
                    ))}
                  </span>
                </li>
              ))}
            </ul>
          );
        }}
      </Show>
    </section>
  );
}

/** How many of a system's attestations one page of its list shows. */
const ATTESTATION_PAGE = 20;

export function SystemAttestations({ systemId }: { systemId: string }) {
  // Cursor paging: the stack holds the cursor of every page before the current one.
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const list = useSystemAttestations(systemId, ATTESTATION_PAGE, cursors[cursors.length - 1]);
  return (
    <section className="card wide" aria-labelledby="system-attestations">
      <h2 id="system-attestations">Attestations</h2>
      <Show loaded={list}>
        {(l) =>
          l.attestations.length === 0 && cursors.length === 1 ? (
            <p>No attestation names this system.</p>
          ) : (
            <>
              <Scroll>
                <table data-testid="system-attestations">
                  <thead>
                    <tr>
                      <th scope="col">Attestation</th>
                      <th scope="col">Time</th>
                      <th scope="col">Level</th>
                      <th scope="col">Epoch</th>
                      <th scope="col">Controls</th>
                    </tr>
                  </thead>
                  <tbody>
                    {l.attestations.map((a) => (
                      <tr key={a.attestationId}>
                        <th scope="row">
                          <code>{a.attestationId}</code>
                        </th>
                        <td>{when(a.timestamp)}</td>
                        <td>
                          <Badge kind={a.level}>{a.level}</Badge>
                        </td>
                        <td>
                          <a href={epochHref(a.epochId)}>{a.epochId}</a>
                        </td>
                        <td>{a.controlIds.join(', ')}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </Scroll>
              {cursors.length === 1 && !l.nextCursor ? null : (
                <nav className="pager" aria-label="Attestation pages of the system">
                  <button
                    type="button"
                    disabled={cursors.length === 1}
                    onClick={() => setCursors(cursors.slice(0, -1))}
                  >
                    Newer
                  </button>
                  <span>page {cursors.length}</span>
                  <button
                    type="button"
                    disabled={!l.nextCursor}
                    onClick={() => l.nextCursor && setCursors([...cursors, l.nextCursor])}
                  >
                    Older
                  </button>
                </nav>
              )}
            </>
          )
        }
      </Show>
    </section>
  );
}
