import { useEffect, useRef, useState } from 'react';
import { LIFECYCLE_STAGES, RISK_LEVELS } from '../../../src/shared/vocabulary.js';
import type { AiSystem } from '../api';
import { frameworkHref, systemHref } from '../links';
import { useRisks } from '../resources/risks';
import { changeAiSystem, useAiSystem } from '../resources/systems';
import { Badge, Field, Show, useAction, useSession, when } from '../ui';
import { SystemAssessments } from './assessments';
import { SystemAttestations, SystemGaps, SystemRisks } from './system-links';

/** The EU AI Act's prohibited practices: where an "unacceptable" system's page sends the officer. */
const PROHIBITED = { frameworkId: 'eu-ai-act', requirementId: 'Art. 5(1)' } as const;

/** One AI system: what it is (editable), its risks, the gaps that concern it, its attestations and assessments. */
export function SystemView({ systemId }: { systemId: string }) {
  const system = useAiSystem(systemId);
  const risks = useRisks({ state: '', level: '', systemId });
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
            {s.riskLevel === 'unacceptable' ? <ProhibitedPractice /> : null}
            <div className="grid">
              <SystemFacts system={s} />
              <SystemChange system={s} />
            </div>
            <SystemRisks risks={risks} />
            <SystemGaps risks={risks} />
            <SystemAttestations systemId={s.systemId} />
            <SystemAssessments system={s} />
          </>
        )}
      </Show>
    </>
  );
}

function ProhibitedPractice() {
  return (
    <div className="notice" role="note" data-testid="prohibited-practice">
      <p>
        <strong>Prohibited.</strong> An AI system of unacceptable risk is a prohibited practice under the EU
        AI Act, Art. 5: it may not be placed on the market, put into service or used in the Union. Withdraw
        it, or record why its risk tier is lower.
      </p>
      <p>
        <a href={frameworkHref(PROHIBITED.frameworkId, PROHIBITED.requirementId)}>
          EU AI Act Art. 5(1): prohibited AI practices
        </a>
      </p>
    </div>
  );
}

function SystemFacts({ system: s }: { system: AiSystem }) {
  return (
    <section className="card" aria-labelledby="system-facts">
      <h2 id="system-facts">The system</h2>
      <dl className="facts" data-testid="system-facts">
        <dt>Risk tier</dt>
        <dd>
          <Badge kind={s.riskLevel}>{s.riskLevel}</Badge>
        </dd>
        <dt>Lifecycle stage</dt>
        <dd>{s.lifecycleStage === 'retired' ? <Badge kind="retired">retired</Badge> : s.lifecycleStage}</dd>
        <dt>Purpose</dt>
        <dd>{s.purpose}</dd>
        <dt>Owner</dt>
        <dd>{s.owner}</dd>
        <dt>Description</dt>
        <dd>{s.description || '—'}</dd>
        <dt>Updated</dt>
        <dd>{when(s.updatedAt)}</dd>
      </dl>
    </section>
  );
}

const formOf = (system: AiSystem) => ({
  description: system.description ?? '',
  owner: system.owner,
  purpose: system.purpose,
  riskLevel: system.riskLevel as string,
  lifecycleStage: system.lifecycleStage as string,
});

/** Every mutable field of the system, and "retire". */
function SystemChange({ system }: { system: AiSystem }) {
  const session = useSession();
  const save = useAction();
  const retire = useAction();
  const [form, setForm] = useState(() => formOf(system));
  // After a save (or a retirement) the form starts again from the system as stored.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the stamp says the system changed
  useEffect(() => setForm(formOf(system)), [system.updatedAt]);
  if (!session.can.write) return null;
  return (
    <div className="card">
      <form
        aria-labelledby="system-change-heading"
        onSubmit={(event) => {
          event.preventDefault();
          const { description, ...rest } = form;
          save.run(
            () =>
              changeAiSystem(session, system.systemId, {
                ...rest,
                description: description.trim() ? description : null,
              }),
            'System saved',
          );
        }}
      >
        <h2 id="system-change-heading">Change the system</h2>
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
        <Field label="Description">
          {(id) => (
            <textarea
              id={id}
              value={form.description}
              onChange={(e) => setForm({ ...form, description: e.target.value })}
            />
          )}
        </Field>
        <button type="submit" disabled={save.busy}>
          Save system
        </button>
        {save.message}
      </form>
      {system.lifecycleStage === 'retired' ? (
        <p className="muted">Retired: choose another lifecycle stage above to bring it back.</p>
      ) : (
        <div className="danger-zone">
          <button
            type="button"
            disabled={retire.busy}
            onClick={() =>
              retire.run(
                () => changeAiSystem(session, system.systemId, { lifecycleStage: 'retired' }),
                'System retired',
              )
            }
          >
            Retire the system
          </button>
        </div>
      )}
      {retire.message}
    </div>
  );
}
