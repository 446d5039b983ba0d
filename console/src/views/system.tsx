import { useEffect, useRef, useState } from 'react';
import { LIFECYCLE_STAGES, RISK_LEVELS } from '../../../src/shared/vocabulary.js';
import type { AiSystem } from '../api';
import { riskHref, systemHref } from '../links';
import { useRisks } from '../resources/risks';
import { changeAiSystem, useAiSystem } from '../resources/systems';
import { Badge, Field, label, Scroll, Show, useAction, useSession, when } from '../ui';
import { SystemAssessments } from './assessments';

/** One AI system: what it is, its risks, and its impact assessments. */
export function SystemView({ systemId }: { systemId: string }) {
  const system = useAiSystem(systemId);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <>
      <p>
        <a href={systemHref()}>← AI systems</a>
      </p>
      <Show loaded={system}>
        {(s) => (
          <>
            <h1 tabIndex={-1} ref={heading}>
              {s.name}
            </h1>
            <div className="grid">
              <section className="card" aria-labelledby="system-facts">
                <h2 id="system-facts">The system</h2>
                <dl className="facts" data-testid="system-facts">
                  <dt>Risk tier</dt>
                  <dd>
                    <Badge kind={s.riskLevel}>{s.riskLevel}</Badge>
                  </dd>
                  <dt>Lifecycle stage</dt>
                  <dd>{s.lifecycleStage}</dd>
                  <dt>Purpose</dt>
                  <dd>{s.purpose}</dd>
                  <dt>Owner</dt>
                  <dd>{s.owner}</dd>
                  <dt>Description</dt>
                  <dd>{s.description ?? '—'}</dd>
                  <dt>Updated</dt>
                  <dd>{when(s.updatedAt)}</dd>
                </dl>
              </section>
              <SystemChange system={s} />
            </div>
            <SystemRisks systemId={s.systemId} />
            <SystemAssessments system={s} />
          </>
        )}
      </Show>
    </>
  );
}

/** What an impact assessment depends on: the risk tier, the lifecycle stage and the purpose. */
function SystemChange({ system }: { system: AiSystem }) {
  const session = useSession();
  const save = useAction();
  const [form, setForm] = useState({
    riskLevel: system.riskLevel as string,
    lifecycleStage: system.lifecycleStage as string,
    purpose: system.purpose,
  });
  if (!session.can.write) return null;
  return (
    <form
      className="card"
      aria-labelledby="system-change"
      onSubmit={(event) => {
        event.preventDefault();
        save.run(() => changeAiSystem(session, system.systemId, form), 'System saved');
      }}
    >
      <h2 id="system-change">Change the system</h2>
      <p className="muted">
        A new risk tier, lifecycle stage or purpose flags its approved impact assessments for re-assessment.
      </p>
      <div className="filters">
        <Field label="Risk tier">
          {(id) => (
            <select
              id={id}
              value={form.riskLevel}
              onChange={(e) => setForm({ ...form, riskLevel: e.target.value })}
            >
              {RISK_LEVELS.map((level) => (
                <option key={level}>{level}</option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Lifecycle stage">
          {(id) => (
            <select
              id={id}
              value={form.lifecycleStage}
              onChange={(e) => setForm({ ...form, lifecycleStage: e.target.value })}
            >
              {LIFECYCLE_STAGES.map((stage) => (
                <option key={stage}>{stage}</option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <Field label="Purpose">
        {(id) => (
          <textarea
            id={id}
            required
            value={form.purpose}
            onChange={(e) => setForm({ ...form, purpose: e.target.value })}
          />
        )}
      </Field>
      <button type="submit" disabled={save.busy}>
        Save system
      </button>
      {save.message}
    </form>
  );
}

const NO_FILTER = { state: '', level: '' };

function SystemRisks({ systemId }: { systemId: string }) {
  const risks = useRisks({ ...NO_FILTER, systemId });
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
