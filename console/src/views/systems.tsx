import { useState } from 'react';
import { LIFECYCLE_STAGES, RISK_LEVELS } from '../../../src/shared/vocabulary.js';
import { systemHref } from '../links';
import { addAiSystem, useAiSystems } from '../resources/systems';
import { Badge, Field, Scroll, Show, useAction, useSession, when } from '../ui';

/** The AI system inventory: filters by risk tier and lifecycle stage, and "add a system". */
export function SystemsView() {
  const session = useSession();
  const [filters, setFilters] = useState({ riskLevel: '', lifecycleStage: '' });
  const list = useAiSystems(filters);
  const add = useAction();
  const empty = { name: '', owner: '', purpose: '', riskLevel: 'limited', lifecycleStage: 'design' };
  const [form, setForm] = useState(empty);
  return (
    <>
      <h1>AI systems</h1>
      <div className="filters">
        <Field label="Risk tier">
          {(id) => (
            <select
              id={id}
              value={filters.riskLevel}
              onChange={(e) => setFilters({ ...filters, riskLevel: e.target.value })}
            >
              <option value="">any</option>
              {RISK_LEVELS.map((r) => (
                <option key={r}>{r}</option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Lifecycle stage">
          {(id) => (
            <select
              id={id}
              value={filters.lifecycleStage}
              onChange={(e) => setFilters({ ...filters, lifecycleStage: e.target.value })}
            >
              <option value="">any</option>
              {LIFECYCLE_STAGES.map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <Show loaded={list}>
        {(l) => (
          <Scroll>
            <table data-testid="systems">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Risk tier</th>
                  <th scope="col">Lifecycle</th>
                  <th scope="col">Owner</th>
                  <th scope="col">Purpose</th>
                  <th scope="col">Updated</th>
                </tr>
              </thead>
              <tbody>
                {l.systems.map((s) => (
                  <tr key={s.systemId}>
                    <th scope="row">
                      <a href={systemHref(s.systemId)}>{s.name}</a>
                    </th>
                    <td>
                      <Badge kind={s.riskLevel}>{s.riskLevel}</Badge>
                    </td>
                    <td>{s.lifecycleStage}</td>
                    <td>{s.owner}</td>
                    <td>{s.purpose}</td>
                    <td>{when(s.updatedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Scroll>
        )}
      </Show>
      {session.can.write ? (
        <form
          className="card"
          aria-labelledby="system-form"
          onSubmit={async (event) => {
            event.preventDefault();
            if (await add.run(() => addAiSystem(session, form), 'System added')) setForm(empty);
          }}
        >
          <h2 id="system-form">Add an AI system</h2>
          <div className="filters">
            <Field label="Name">
              {(id) => (
                <input
                  id={id}
                  required
                  value={form.name}
                  onChange={(e) => setForm({ ...form, name: e.target.value })}
                />
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
            <Field label="Purpose">
              {(id) => (
                <input
                  id={id}
                  required
                  value={form.purpose}
                  onChange={(e) => setForm({ ...form, purpose: e.target.value })}
                />
              )}
            </Field>
            <Field label="Risk">
              {(id) => (
                <select
                  id={id}
                  value={form.riskLevel}
                  onChange={(e) => setForm({ ...form, riskLevel: e.target.value })}
                >
                  {RISK_LEVELS.map((r) => (
                    <option key={r}>{r}</option>
                  ))}
                </select>
              )}
            </Field>
            <Field label="Stage">
              {(id) => (
                <select
                  id={id}
                  value={form.lifecycleStage}
                  onChange={(e) => setForm({ ...form, lifecycleStage: e.target.value })}
                >
                  {LIFECYCLE_STAGES.map((s) => (
                    <option key={s}>{s}</option>
                  ))}
                </select>
              )}
            </Field>
          </div>
          <button type="submit" disabled={add.busy}>
            Add system
          </button>
          {add.message}
        </form>
      ) : null}
    </>
  );
}
