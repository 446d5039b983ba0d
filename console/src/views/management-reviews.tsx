import { type ReactNode, useState } from 'react';
import type { ManagementReview, ReviewDecision } from '../api';
import { ScoreChangeChart } from '../chart';
import { auditHref, findingHref, reviewHref, riskHref } from '../links';
import {
  closeReview,
  holdReview,
  INPUTS,
  inputsOf,
  type ReviewInputs,
  recordReview,
  useReview,
  useReviews,
} from '../resources/reviews';
import { Badge, Bar, day, Field, label, Scroll, Show, score, useAction, useSession, when } from '../ui';

const DAY_MS = 86_400_000;
const dateIn = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString().slice(0, 10);
/** A datetime-local field's value for now, in the browser's time zone. */
const localNow = () => {
  const now = new Date();
  return new Date(now.getTime() - now.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};

const periodText = (review: ManagementReview) => `${day(review.period.from)} – ${day(review.period.to)}`;

/** The management reviews (ISO/IEC 42001 9.3), latest held first, and the form that holds one. */
export function ReviewsView() {
  const session = useSession();
  const reviews = useReviews();
  return (
    <>
      <h1>Management reviews</h1>
      <Show loaded={reviews}>
        {(list) =>
          list.reviews.length === 0 ? (
            <p className="muted">No management review has been held yet.</p>
          ) : (
            <Scroll>
              <table data-testid="reviews">
                <caption>Management reviews</caption>
                <thead>
                  <tr>
                    <th scope="col">Held</th>
                    <th scope="col">Period</th>
                    <th scope="col">Attendees</th>
                    <th scope="col">Decisions</th>
                    <th scope="col">State</th>
                    <th scope="col">Content hash</th>
                  </tr>
                </thead>
                <tbody>
                  {list.reviews.map((r) => (
                    <tr key={r.reviewId} data-review={r.reviewId}>
                      <th scope="row">
                        <a href={reviewHref(r.reviewId)}>{when(r.heldAt)}</a>
                      </th>
                      <td className="num">{periodText(r)}</td>
                      <td>{r.attendees.join(', ')}</td>
                      <td className="num">{r.decisions.length}</td>
                      <td>
                        <Badge kind={r.state}>{r.state}</Badge>
                      </td>
                      <td>{r.contentHash ? <code>{r.contentHash.slice(0, 16)}…</code> : '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </Scroll>
          )
        }
      </Show>
      {session.can.write ? <HoldReviewForm /> : null}
    </>
  );
}

function HoldReviewForm() {
  const session = useSession();
  const hold = useAction();
  const [form, setForm] = useState(() => ({
    heldAt: localNow(),
    from: dateIn(-90),
    to: dateIn(0),
    attendees: session.person?.name ?? '',
  }));
  return (
    <form
      className="card"
      aria-labelledby="hold-review"
      onSubmit={async (event) => {
        event.preventDefault();
        let held: ManagementReview | undefined;
        const done = await hold.run(async () => {
          held = await holdReview(session, {
            heldAt: new Date(form.heldAt).toISOString(),
            attendees: form.attendees
              .split('\n')
              .map((name) => name.trim())
              .filter(Boolean),
            // The period's last day is included: it ends where the next day starts.
            period: {
              from: `${form.from}T00:00:00.000Z`,
              to: new Date(Date.parse(`${form.to}T00:00:00.000Z`) + DAY_MS).toISOString(),
            },
          });
        }, 'Review held: its inputs are filled from the records');
        if (done && held) window.location.hash = reviewHref(held.reviewId);
      }}
    >
      <h2 id="hold-review">Hold a review</h2>
      <p className="muted">
        The inputs are computed from the organization’s own records for the period: earlier decisions, every
        framework’s score at both ends, nonconformities, audits, attestations, risks and opportunities.
      </p>
      <div className="filters">
        <Field label="Held at">
          {(id) => (
            <input
              id={id}
              type="datetime-local"
              required
              value={form.heldAt}
              onChange={(e) => setForm({ ...form, heldAt: e.target.value })}
            />
          )}
        </Field>
        <Field label="Period from">
          {(id) => (
            <input
              id={id}
              type="date"
              required
              value={form.from}
              onChange={(e) => setForm({ ...form, from: e.target.value })}
            />
          )}
        </Field>
        <Field label="Period to (included)">
          {(id) => (
            <input
              id={id}
              type="date"
              required
              min={form.from}
              value={form.to}
              onChange={(e) => setForm({ ...form, to: e.target.value })}
            />
          )}
        </Field>
      </div>
      <Field label="Attendees (one per line)">
        {(id) => (
          <textarea
            id={id}
            required
            value={form.attendees}
            onChange={(e) => setForm({ ...form, attendees: e.target.value })}
          />
        )}
      </Field>
      <button type="submit" disabled={hold.busy}>
        Hold review
      </button>
      {hold.message}
    </form>
  );
}

/** One management review: its inputs as tables and charts, notes per input, decisions, and Close. */
export function ReviewView({ reviewId }: { reviewId: string }) {
  const review = useReview(reviewId);
  return (
    <Show loaded={review}>
      {(r) => {
        const inputs = inputsOf(r);
        return (
          <>
            <p>
              <a href={reviewHref()}>Management reviews</a>
            </p>
            <h1>
              Management review of {day(r.heldAt)} <Badge kind={r.state}>{r.state}</Badge>
            </h1>
            <div className="grid">
              <section className="card" aria-labelledby="review-facts">
                <h2 id="review-facts">Review</h2>
                <dl className="facts">
                  <dt>Held</dt>
                  <dd>{when(r.heldAt)}</dd>
                  <dt>Period</dt>
                  <dd>
                    {day(r.period.from)} – {day(new Date(Date.parse(r.period.to) - 1).toISOString())}
                  </dd>
                  <dt>Attendees</dt>
                  <dd>{r.attendees.join(', ')}</dd>
                  <dt>Closed</dt>
                  <dd>{when(r.closedAt)}</dd>
                  <dt>Content hash</dt>
                  <dd data-testid="content-hash">
                    {r.contentHash ? <code>{r.contentHash}</code> : '— (open)'}
                  </dd>
                </dl>
              </section>
              <CloseCard review={r} />
            </div>
            {INPUTS.map(({ key, name }) => (
              <section
                key={key}
                className="card review-input"
                aria-labelledby={`input-${key}`}
                data-input={key}
              >
                <h2 id={`input-${key}`}>{name}</h2>
                <InputBody inputs={inputs} inputKey={key} />
                <InputNote review={r} inputKey={key} name={name} />
              </section>
            ))}
            <Decisions review={r} />
          </>
        );
      }}
    </Show>
  );
}

/** A `{name: count}` record as a table, each count with a bar against the largest. */
function CountTable({
  caption,
  counts,
  name,
}: {
  caption: string;
  counts: Record<string, number>;
  name: string;
}) {
  const entries = Object.entries(counts);
  if (entries.length === 0) return <p className="muted">{caption}: none.</p>;
  const most = Math.max(1, ...entries.map(([, count]) => count));
  return (
    <table className="counts">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{name}</th>
          <th scope="col">Count</th>
        </tr>
      </thead>
      <tbody>
        {entries.map(([key, count]) => (
          <tr key={key}>
            <th scope="row">{label(key)}</th>
            <td className="num">
              {count} <Bar value={(100 * count) / most} text={`${count} of ${most}`} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const kindsText = (byKind: Record<string, number>) =>
  Object.entries(byKind)
    .map(([kind, count]) => `${label(kind)}: ${count}`)
    .join(' · ') || 'none';

function InputBody({ inputs, inputKey }: { inputs: ReviewInputs; inputKey: keyof ReviewInputs }): ReactNode {
  switch (inputKey) {
    case 'earlierActions': {
      const actions = inputs.earlierActions ?? [];
      if (actions.length === 0) return <p className="muted">No earlier review decided anything.</p>;
      return (
        <Scroll>
          <table>
            <thead>
              <tr>
                <th scope="col">Decision</th>
                <th scope="col">Review</th>
                <th scope="col">Owner</th>
                <th scope="col">Due</th>
              </tr>
            </thead>
            <tbody>
              {actions.map((a, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: decisions are a list without ids
                <tr key={`${a.reviewId}-${i}`} className={a.overdue ? 'overdue' : undefined}>
                  <th scope="row">{a.text}</th>
                  <td>
                    <a href={reviewHref(a.reviewId)}>{day(a.heldAt)}</a>
                  </td>
                  <td>{a.owner ?? '—'}</td>
                  <td className="num">
                    {day(a.dueDate)} {a.overdue ? <Badge kind="overdue">overdue</Badge> : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Scroll>
      );
    }
    case 'scores': {
      const scores = inputs.scores ?? [];
      return (
        <>
          <ScoreChangeChart
            items={scores.map((s) => ({ id: s.frameworkId, from: s.from, to: s.to }))}
            title="Score of every framework at the start and the end of the period"
          />
          <Scroll>
            <table data-testid="review-scores">
              <thead>
                <tr>
                  <th scope="col">Framework</th>
                  <th scope="col">At the start</th>
                  <th scope="col">At the end</th>
                  <th scope="col">Change</th>
                </tr>
              </thead>
              <tbody>
                {scores.map((s) => (
                  <tr key={s.frameworkId} data-framework={s.frameworkId}>
                    <th scope="row">{s.name}</th>
                    <td className="num">{score(s.from)}</td>
                    <td className="num">{score(s.to)}</td>
                    <td className="num">
                      {s.change === null ? '—' : `${s.change > 0 ? '+' : ''}${s.change.toFixed(1)} points`}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Scroll>
        </>
      );
    }
    case 'nonconformities': {
      const n = inputs.nonconformities;
      if (!n) return <p className="muted">Not recorded.</p>;
      return (
        <>
          <dl className="facts" data-testid="review-nonconformities">
            <dt>Opened in the period</dt>
            <dd>{n.opened}</dd>
            <dt>Closed in the period</dt>
            <dd>{n.closed}</dd>
            <dt>Open at the end</dt>
            <dd>{n.openAtEnd}</dd>
          </dl>
          <CountTable caption="Opened, by kind" counts={n.byKind} name="Kind" />
        </>
      );
    }
    case 'audits': {
      const completed = inputs.audits?.completed ?? [];
      if (completed.length === 0)
        return <p className="muted">No internal audit was completed in the period.</p>;
      return (
        <Scroll>
          <table>
            <thead>
              <tr>
                <th scope="col">Audit</th>
                <th scope="col">Completed</th>
                <th scope="col">Conclusion</th>
                <th scope="col">Findings by kind</th>
              </tr>
            </thead>
            <tbody>
              {completed.map((a) => (
                <tr key={a.auditId}>
                  <th scope="row">
                    <a href={auditHref(a.auditId)}>{a.title}</a>
                  </th>
                  <td className="num">{day(a.completedAt)}</td>
                  <td>{a.conclusion ?? '—'}</td>
                  <td>{kindsText(a.findingsByKind)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Scroll>
      );
    }
    case 'attestations':
      return (
        <CountTable
          caption="Attestations by level"
          counts={inputs.attestations?.byLevel ?? {}}
          name="Level"
        />
      );
    case 'risks': {
      const risks = inputs.risks;
      if (!risks) return <p className="muted">Not recorded.</p>;
      return (
        <>
          <div className="grid">
            <CountTable caption="Risks by level" counts={risks.byLevel} name="Level" />
            <CountTable caption="Risks by state" counts={risks.byState} name="State" />
          </div>
          {risks.acceptancesExpiring.length ? (
            <Scroll>
              <table>
                <caption>Acceptances expiring within 90 days after the period</caption>
                <thead>
                  <tr>
                    <th scope="col">Risk</th>
                    <th scope="col">Expires</th>
                  </tr>
                </thead>
                <tbody>
                  {risks.acceptancesExpiring.map((a) => (
                    <tr key={a.riskId}>
                      <th scope="row">
                        <a href={riskHref(a.riskId)}>{a.title}</a>
                      </th>
                      <td className="num">{day(a.expiresAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </Scroll>
          ) : (
            <p className="muted">No risk acceptance expires within 90 days after the period.</p>
          )}
        </>
      );
    }
    case 'opportunities': {
      const opportunities = inputs.opportunities ?? [];
      if (opportunities.length === 0)
        return <p className="muted">No opportunity was recorded in the period.</p>;
      return (
        <ul>
          {opportunities.map((o) => (
            <li key={o.findingId}>
              <a href={findingHref(o.findingId)}>{o.description}</a>{' '}
              <span className="muted">({day(o.openedAt)})</span>
            </li>
          ))}
        </ul>
      );
    }
  }
}

/** The note on one input: shown, and editable while the review is open (writers). */
function InputNote({ review, inputKey, name }: { review: ManagementReview; inputKey: string; name: string }) {
  const session = useSession();
  const save = useAction();
  const saved = review.notes[inputKey] ?? '';
  const [note, setNote] = useState(saved);
  if (review.state === 'closed' || !session.can.write) {
    return saved ? (
      <p className="note">
        <strong>Note:</strong> {saved}
      </p>
    ) : null;
  }
  return (
    <form
      className="note-form"
      onSubmit={async (event) => {
        event.preventDefault();
        await save.run(
          () => recordReview(session, review.reviewId, { notes: { [inputKey]: note } }),
          'Note saved',
        );
      }}
    >
      <Field label={`Notes on ${name.toLowerCase()}`}>
        {(id) => <textarea id={id} value={note} onChange={(e) => setNote(e.target.value)} />}
      </Field>
      <button type="submit" disabled={save.busy || note === saved}>
        Save note
      </button>
      {save.message}
    </form>
  );
}

/** The review's decisions (text, owner, due); while open, writers add and remove them. */
function Decisions({ review }: { review: ManagementReview }) {
  const session = useSession();
  const change = useAction();
  const empty = { text: '', owner: '', dueDate: '' };
  const [form, setForm] = useState(empty);
  const editable = review.state === 'open' && session.can.write;
  const save = (decisions: ReviewDecision[], done: string) =>
    change.run(() => recordReview(session, review.reviewId, { decisions }), done);
  return (
    <section className="card" aria-labelledby="decisions">
      <h2 id="decisions">Decisions</h2>
      {review.decisions.length === 0 ? (
        <p className="muted">No decision recorded.</p>
      ) : (
        <Scroll>
          <table data-testid="decisions">
            <thead>
              <tr>
                <th scope="col">Decision</th>
                <th scope="col">Owner</th>
                <th scope="col">Due</th>
                {editable ? (
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {review.decisions.map((d, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: decisions are a list without ids
                <tr key={i}>
                  <th scope="row">{d.text}</th>
                  <td>{d.owner ?? '—'}</td>
                  <td className="num">{day(d.dueDate)}</td>
                  {editable ? (
                    <td>
                      <button
                        type="button"
                        className="link"
                        aria-label={`Remove decision ${d.text}`}
                        disabled={change.busy}
                        onClick={() =>
                          save(
                            review.decisions.filter((_, j) => j !== i),
                            'Decision removed',
                          )
                        }
                      >
                        remove
                      </button>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </Scroll>
      )}
      {editable ? (
        <form
          onSubmit={async (event) => {
            event.preventDefault();
            const decision: ReviewDecision = {
              text: form.text.trim(),
              ...(form.owner.trim() ? { owner: form.owner.trim() } : {}),
              ...(form.dueDate ? { dueDate: `${form.dueDate}T23:59:59.000Z` } : {}),
            };
            if (await save([...review.decisions, decision], 'Decision added')) setForm(empty);
          }}
        >
          <h3>Add a decision</h3>
          <Field label="Decision">
            {(id) => (
              <textarea
                id={id}
                required
                value={form.text}
                onChange={(e) => setForm({ ...form, text: e.target.value })}
              />
            )}
          </Field>
          <div className="filters">
            <Field label="Decision owner">
              {(id) => (
                <input
                  id={id}
                  value={form.owner}
                  onChange={(e) => setForm({ ...form, owner: e.target.value })}
                />
              )}
            </Field>
            <Field label="Decision due">
              {(id) => (
                <input
                  id={id}
                  type="date"
                  value={form.dueDate}
                  onChange={(e) => setForm({ ...form, dueDate: e.target.value })}
                />
              )}
            </Field>
          </div>
          <button type="submit" disabled={change.busy || !form.text.trim()}>
            Add decision
          </button>
        </form>
      ) : null}
      {change.message}
    </section>
  );
}

/** Closes the review: it is frozen and gets its content hash (writers, while open). */
function CloseCard({ review }: { review: ManagementReview }) {
  const session = useSession();
  const close = useAction();
  const [confirming, setConfirming] = useState(false);
  if (review.state === 'closed' || !session.can.write) return null;
  return (
    <section className="card" aria-labelledby="close-review">
      <h2 id="close-review">Close the review</h2>
      <p className="muted">
        Closing freezes the inputs, notes and decisions: they can no longer change, and the review gets a
        content hash (SHA-256 of its content).
      </p>
      {confirming ? (
        <div className="buttons">
          <button
            type="button"
            disabled={close.busy}
            onClick={() => close.run(() => closeReview(session, review.reviewId), 'Review closed')}
          >
            Yes, close and freeze
          </button>
          <button type="button" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      ) : (
        <button type="button" onClick={() => setConfirming(true)}>
          Close review
        </button>
      )}
      {close.message}
    </section>
  );
}
