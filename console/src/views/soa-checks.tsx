import type { ReactNode } from 'react';
import { assessmentHref, frameworkHref, riskHref, systemHref } from '../links';
import { type SoaCheck, useSoaChecks } from '../resources/risks';
import { useAiSystems } from '../resources/systems';
import { Badge, label, Scroll, Show } from '../ui';

const ALL_SYSTEMS = { riskLevel: '', lifecycleStage: '' };
const SEVERITY_ORDER = ['critical', 'high', 'medium', 'low', 'info'];
const rank = (severity: string) => {
  const index = SEVERITY_ORDER.indexOf(severity);
  return index === -1 ? SEVERITY_ORDER.length : index;
};

/** What a check is about, each linked where the console has a page for it. */
function Subject({ check, systems }: { check: SoaCheck; systems: Map<string, string> }) {
  const parts: { key: string; node: ReactNode }[] = [];
  if (check.controlId)
    parts.push({
      key: 'control',
      node: <a href={frameworkHref('iso-42001', check.controlId)}>{check.controlId}</a>,
    });
  if (check.riskId) parts.push({ key: 'risk', node: <a href={riskHref(check.riskId)}>the risk</a> });
  if (check.systemId)
    parts.push({
      key: 'system',
      node: <a href={systemHref(check.systemId)}>{systems.get(check.systemId) ?? 'the AI system'}</a>,
    });
  if (check.assessmentId)
    parts.push({ key: 'assessment', node: <a href={assessmentHref(check.assessmentId)}>the assessment</a> });
  if (parts.length === 0) return <>—</>;
  return (
    <>
      {parts.map(({ key, node }, index) => (
        <span key={key}>
          {index > 0 ? ' · ' : ''}
          {node}
        </span>
      ))}
    </>
  );
}

/**
 * The Statement of Applicability's consistency checks: where the SoA, the risk treatment and the impact
 * assessments disagree (an excluded control that treats a risk, a risk without treatment, an acceptance
 * stale or expired, …). A daemon without the route shows nothing.
 */
export function SoaChecksPanel() {
  const checks = useSoaChecks();
  const systems = useAiSystems(ALL_SYSTEMS);
  const names = new Map((systems.data?.systems ?? []).map((s) => [s.systemId, s.name]));
  if (checks.data === null) return null;
  return (
    <section className="card soa-checks" aria-labelledby="soa-checks-heading" data-testid="soa-checks">
      <h2 id="soa-checks-heading">Checks</h2>
      <Show loaded={checks}>
        {(result) => {
          if (result === null) return null;
          const sorted = [...result.checks].sort((a, b) => rank(a.severity) - rank(b.severity));
          return sorted.length === 0 ? (
            <p className="ok">
              No finding: the SoA agrees with the risk treatment and the impact assessments.
            </p>
          ) : (
            <>
              <p>
                {sorted.length} {sorted.length === 1 ? 'finding' : 'findings'} an auditor would raise against
                the Statement of Applicability.
              </p>
              <Scroll>
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Severity</th>
                      <th scope="col">Check</th>
                      <th scope="col">Finding</th>
                      <th scope="col">About</th>
                    </tr>
                  </thead>
                  <tbody>
                    {sorted.map((check, index) => (
                      <tr
                        // biome-ignore lint/suspicious/noArrayIndexKey: findings have no id, and the list is not reordered
                        key={index}
                        data-kind={check.kind}
                      >
                        <td>
                          <Badge kind={check.severity}>{check.severity}</Badge>
                        </td>
                        <td>{label(check.kind)}</td>
                        <td>{check.message}</td>
                        <td>
                          <Subject check={check} systems={names} />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </Scroll>
            </>
          );
        }}
      </Show>
    </section>
  );
}
