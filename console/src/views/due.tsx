import { useState } from 'react';
import { DUE_KINDS, type DueKind } from '../../../src/shared/vocabulary.js';
import type { DueItem } from '../api';
import { assessmentHref, documentHref, findingHref, reviewHref, riskHref } from '../links';
import { useAgenda } from '../resources/agenda';
import { Badge, day, Field, Pager, Scroll, Show, useSession } from '../ui';

const LIMIT = 200;
const DAY_MS = 86_400_000;

/** What each kind of obligation is called on the page. */
export const DUE_KIND_NAMES: Record<DueKind, string> = {
  evidence_expiry: 'Evidence expiring',
  risk_treatment: 'Risk treatments',
  risk_review: 'Risk reviews',
  acceptance_expiry: 'Risk acceptances expiring',
  assessment_review: 'Impact assessment reviews',
  document_review: 'Document reviews',
  finding_due: 'Corrective actions of findings',
  decision_due: 'Management-review decisions',
};

/** Where an item leads: its resource's page, when the console has one (evidence has none of its own). */
function hrefOf(item: DueItem): string | undefined {
  const { type, id } = item.resource;
  switch (type) {
    case 'finding':
      return findingHref(id);
    // A decision is `<reviewId>#<index>`: the review's page lists its decisions.
    case 'management-review':
      return reviewHref(id.split('#')[0]);
    case 'risk':
      return riskHref(id);
    case 'impact-assessment':
      return assessmentHref(id);
    case 'document':
      return documentHref(id);
    default:
      return undefined;
  }
}

/** "3 days overdue", "overdue since today", "due today", "in 12 days": calendar days (UTC), as the dates show. */
function relative(item: DueItem, now: number): string {
  const days = Math.round(
    (Date.parse(day(item.dueAt)) - Date.parse(day(new Date(now).toISOString()))) / DAY_MS,
  );
  if (days < 0) return `${-days} day${days === -1 ? '' : 's'} overdue`;
  if (days === 0) return item.overdue ? 'overdue since today' : 'due today';
  return `in ${days} day${days === 1 ? '' : 's'}`;
}

/** The items grouped by kind, the group with the earliest (most overdue) item first; overdue items lead each group. */
function groupByKind(items: DueItem[]): [DueKind, DueItem[]][] {
  const groups = new Map<DueKind, DueItem[]>();
  for (const item of items) {
    const group = groups.get(item.kind) ?? [];
    group.push(item);
    groups.set(item.kind, group);
  }
  return [...groups.entries()].map(([kind, group]) => [
    kind,
    [...group.filter((item) => item.overdue), ...group.filter((item) => !item.overdue)],
  ]);
}

/**
 * What is due for the signed-in person (the items they own, by name), or everything of the org: overdue items
 * first and highlighted, grouped by kind, each linking to its page where the console has one.
 */
export function DueView() {
  const session = useSession();
  const person = session.person?.name;
  const [scope, setScope] = useState<'mine' | 'all'>(person ? 'mine' : 'all');
  const [kind, setKind] = useState('');
  const [within, setWithin] = useState('');
  const [offset, setOffset] = useState(0);
  const mine = scope === 'mine' && person !== undefined;
  const agenda = useAgenda(
    { owner: mine ? person : undefined, kind, withinDays: within === '' ? null : Number(within) },
    offset,
    LIMIT,
  );
  const now = Date.now();
  return (
    <>
      <h1>What is due</h1>
      <div className="filters">
        {person ? (
          <fieldset className="segmented">
            <legend>Show</legend>
            <label>
              <input
                type="radio"
                name="due-scope"
                checked={scope === 'mine'}
                onChange={() => {
                  setScope('mine');
                  setOffset(0);
                }}
              />
              mine ({person})
            </label>
            <label>
              <input
                type="radio"
                name="due-scope"
                checked={scope === 'all'}
                onChange={() => {
                  setScope('all');
                  setOffset(0);
                }}
              />
              everything
            </label>
          </fieldset>
        ) : null}
        <Field label="Kind">
          {(id) => (
            <select
              id={id}
              value={kind}
              onChange={(e) => {
                setKind(e.target.value);
                setOffset(0);
              }}
            >
              <option value="">any</option>
              {DUE_KINDS.map((k) => (
                <option key={k} value={k}>
                  {DUE_KIND_NAMES[k]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Due within">
          {(id) => (
            <select
              id={id}
              value={within}
              onChange={(e) => {
                setWithin(e.target.value);
                setOffset(0);
              }}
            >
              <option value="">any time</option>
              <option value="7">7 days</option>
              <option value="30">30 days</option>
              <option value="90">90 days</option>
            </select>
          )}
        </Field>
      </div>
      {person ? null : (
        <p className="muted">An API key owns nothing: this is everything that is due in {session.orgName}.</p>
      )}
      <Show loaded={agenda}>
        {(a) => {
          const overdue = a.items.filter((item) => item.overdue).length;
          return (
            <>
              <p data-testid="due-summary">
                {a.total === 0 ? (
                  mine ? (
                    `Nothing is due for ${person}.`
                  ) : (
                    'Nothing is due.'
                  )
                ) : (
                  <>
                    <strong className={overdue ? 'error' : undefined}>{overdue} overdue</strong> ·{' '}
                    {a.items.length - overdue} coming up
                    {a.total > a.items.length ? ` (${a.items.length} of ${a.total} shown)` : ''}
                  </>
                )}
              </p>
              {groupByKind(a.items).map(([k, items]) => (
                <section key={k} className="card due-group" aria-labelledby={`due-${k}`} data-kind={k}>
                  <h2 id={`due-${k}`}>
                    {DUE_KIND_NAMES[k]} <span className="muted">({items.length})</span>
                  </h2>
                  <Scroll>
                    <table>
                      <thead>
                        <tr>
                          <th scope="col">Due</th>
                          <th scope="col">What</th>
                          <th scope="col">Owner</th>
                          <th scope="col">When</th>
                        </tr>
                      </thead>
                      <tbody>
                        {items.map((item) => {
                          const href = hrefOf(item);
                          return (
                            <tr
                              key={`${item.resource.type}:${item.resource.id}:${item.kind}`}
                              className={item.overdue ? 'overdue' : undefined}
                              data-overdue={item.overdue}
                              data-resource={item.resource.id}
                            >
                              <td className="num">{day(item.dueAt)}</td>
                              <th scope="row">{href ? <a href={href}>{item.title}</a> : item.title}</th>
                              <td>{item.owner ?? '—'}</td>
                              <td className="num">
                                {item.overdue ? (
                                  <Badge kind="overdue">{relative(item, now)}</Badge>
                                ) : (
                                  relative(item, now)
                                )}
                              </td>
                            </tr>
                          );
                        })}
                      </tbody>
                    </table>
                  </Scroll>
                </section>
              ))}
              {a.total > LIMIT ? (
                <Pager offset={offset} limit={LIMIT} total={a.total} onChange={setOffset} label="Due items" />
              ) : null}
            </>
          );
        }}
      </Show>
    </>
  );
}
