import { useEffect, useState } from 'react';
import { ASSESSMENTS, STATUSES } from '../api';
import { frameworkHref } from '../links';
import { useRequirements } from '../resources/frameworks';
import { Badge, Field, label, Pager, Scroll, Show } from '../ui';

const PAGE = 25;

/** A framework's requirements with the org's records: filters, a text search, and the row opened marked. */
export function Requirements({ frameworkId, selected }: { frameworkId: string; selected?: string }) {
  const [status, setStatus] = useState('');
  const [assessment, setAssessment] = useState('');
  const [applicable, setApplicable] = useState('');
  const [text, setText] = useState('');
  const [offset, setOffset] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new filter starts at the first page
  useEffect(() => setOffset(0), [frameworkId, status, assessment, applicable, text]);
  const list = useRequirements(frameworkId, { status, assessment, applicable });
  const needle = text.trim().toLowerCase();
  const rows = (list.data?.requirements ?? []).filter(
    (r) => !needle || `${r.requirementId} ${r.title}`.toLowerCase().includes(needle),
  );
  // The page of the list that holds the requirement opened, so that its row is shown, marked.
  const at = selected === undefined ? -1 : rows.findIndex((r) => r.requirementId === selected);
  // biome-ignore lint/correctness/useExhaustiveDependencies: when another requirement opens, or the list loads
  useEffect(() => {
    if (at >= 0 && (at < offset || at >= offset + PAGE)) setOffset(Math.floor(at / PAGE) * PAGE);
  }, [selected, list.data]);
  return (
    <section aria-labelledby="req-heading" className="card wide">
      <h2 id="req-heading">Requirements</h2>
      <div className="filters">
        <Field label="Status">
          {(id) => (
            <select id={id} value={status} onChange={(e) => setStatus(e.target.value)}>
              <option value="">any</option>
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {label(s)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Source">
          {(id) => (
            <select id={id} value={assessment} onChange={(e) => setAssessment(e.target.value)}>
              <option value="">any</option>
              {ASSESSMENTS.map((source) => (
                <option key={source} value={source}>
                  {source}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Applicable">
          {(id) => (
            <select id={id} value={applicable} onChange={(e) => setApplicable(e.target.value)}>
              <option value="">any</option>
              <option value="true">yes</option>
              <option value="false">no</option>
            </select>
          )}
        </Field>
        <Field label="Search">
          {(id) => (
            <input
              id={id}
              type="search"
              value={text}
              onChange={(e) => setText(e.target.value)}
              placeholder="id or title"
            />
          )}
        </Field>
      </div>
      <Show loaded={list}>
        {() => (
          <>
            <Scroll>
              <table className="requirements">
                <thead>
                  <tr>
                    <th scope="col">Requirement</th>
                    <th scope="col">Title</th>
                    <th scope="col">Status</th>
                    <th scope="col">Source</th>
                    <th scope="col">Applicable</th>
                    <th scope="col">Evidence</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.slice(offset, offset + PAGE).map((r) => (
                    <tr
                      key={r.requirementId}
                      data-requirement={r.requirementId}
                      aria-selected={r.requirementId === selected}
                    >
                      <th scope="row">
                        <a href={frameworkHref(frameworkId, r.requirementId)}>{r.requirementId}</a>
                      </th>
                      <td>{r.title}</td>
                      <td>
                        <Badge kind={r.status}>{label(r.status)}</Badge>
                      </td>
                      <td>{r.assessment}</td>
                      <td>{r.applicable ? 'yes' : 'no'}</td>
                      <td className="num">
                        {r.evidenceCount}
                        {r.evidenceExpired ? <Badge kind="expired">expired</Badge> : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </Scroll>
            <Pager
              offset={offset}
              limit={PAGE}
              total={rows.length}
              onChange={setOffset}
              label="Requirements"
            />
          </>
        )}
      </Show>
    </section>
  );
}
