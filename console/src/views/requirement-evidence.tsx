import { useState } from 'react';
import { addEvidence, type RequirementRef, useRequirementEvidence } from '../resources/frameworks';
import { Badge, Field, Pager, Show, useAction, useSession, when } from '../ui';

/** A requirement's evidence, newest first and paged, with "add evidence" for those who may write. */
export function EvidenceList({ record, canWrite }: { record: RequirementRef; canWrite: boolean }) {
  const session = useSession();
  const [offset, setOffset] = useState(0);
  const list = useRequirementEvidence(record.frameworkId, record.requirementId, offset);
  const add = useAction();
  const empty = { type: 'document', title: '', fileUrl: '', description: '', expiresAt: '' };
  const [form, setForm] = useState(empty);
  return (
    <>
      <h3>Evidence</h3>
      <Show loaded={list}>
        {(l) => (
          <>
            {l.evidence.length === 0 ? (
              <p>No evidence yet.</p>
            ) : (
              <ul className="evidence" data-testid="evidence-list">
                {l.evidence.map((e) => (
                  <li key={e.evidenceId}>
                    <Badge kind={e.type}>{e.type}</Badge>{' '}
                    {e.fileUrl ? (
                      <a href={e.fileUrl} rel="noopener noreferrer" target="_blank">
                        {e.title}
                      </a>
                    ) : (
                      e.title
                    )}{' '}
                    <span className="muted">
                      added {when(e.createdAt)}
                      {e.expiresAt ? ` · expires ${e.expiresAt.slice(0, 10)}` : ''}
                    </span>
                    {e.expired ? <Badge kind="expired">expired</Badge> : null}
                  </li>
                ))}
              </ul>
            )}
            <Pager offset={offset} limit={10} total={l.total} onChange={setOffset} label="Evidence" />
          </>
        )}
      </Show>
      {canWrite ? (
        <form
          aria-labelledby="evidence-form"
          onSubmit={async (event) => {
            event.preventDefault();
            const ok = await add.run(
              () =>
                addEvidence(session, record, {
                  type: form.type,
                  title: form.title,
                  ...(form.fileUrl ? { fileUrl: form.fileUrl } : {}),
                  ...(form.description ? { description: form.description } : {}),
                  ...(form.expiresAt ? { expiresAt: form.expiresAt } : {}),
                }),
              'Evidence added',
            );
            if (ok) setForm(empty);
          }}
        >
          <h3 id="evidence-form">Add evidence</h3>
          <Field label="Type">
            {(id) => (
              <select id={id} value={form.type} onChange={(e) => setForm({ ...form, type: e.target.value })}>
                <option value="document">document</option>
                <option value="link">link</option>
                <option value="attestation">attestation</option>
              </select>
            )}
          </Field>
          <Field label="Title">
            {(id) => (
              <input
                id={id}
                required
                value={form.title}
                onChange={(e) => setForm({ ...form, title: e.target.value })}
              />
            )}
          </Field>
          <Field label="File URL">
            {(id) => (
              <input
                id={id}
                type="url"
                required={form.type !== 'attestation'}
                value={form.fileUrl}
                onChange={(e) => setForm({ ...form, fileUrl: e.target.value })}
              />
            )}
          </Field>
          <Field label="Expires on">
            {(id) => (
              <input
                id={id}
                type="date"
                value={form.expiresAt}
                onChange={(e) => setForm({ ...form, expiresAt: e.target.value })}
              />
            )}
          </Field>
          <button type="submit" disabled={add.busy}>
            Add evidence
          </button>
          {add.message}
        </form>
      ) : null}
    </>
  );
}
