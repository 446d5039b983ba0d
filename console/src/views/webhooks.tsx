import { useState } from 'react';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../../src/shared/vocabulary.js';
import type { CreatedWebhook, Webhook } from '../api';
import { addWebhook, deleteWebhook, useDeliveries, useWebhooks } from '../resources/webhooks';
import { Badge, Field, Pager, Scroll, Show, useAction, useSession, when } from '../ui';

/** What each event tells a receiver, as the form explains it. */
const EVENT_TEXT: Record<WebhookEventType, string> = {
  'requirement.status_changed': 'a requirement’s status changed',
  'evidence.created': 'evidence was added',
  'risk.created': 'a risk was registered',
  'risk.needs_acceptance': 'a risk needs acceptance',
  'assessment.approved': 'an impact assessment was approved',
  'document.published': 'a document version was published',
  'finding.opened': 'an audit finding was opened',
  'item.due_soon': 'something falls due soon',
  'item.overdue': 'something is overdue',
};
const DELIVERIES = 25;

/**
 * The org's webhooks (owners and platform administrators): add one with its events (the signing secret is
 * shown once), delete one, and read each one's delivery log.
 */
export function WebhooksView() {
  const session = useSession();
  const webhooks = useWebhooks();
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const remove = useAction();
  const [confirming, setConfirming] = useState<string | null>(null);
  const chosen = webhooks.data?.webhooks.find((w) => w.webhookId === selected);
  return (
    <>
      <h1>Webhooks · {session.orgName}</h1>
      <p className="muted">
        comply posts each event to the receiver, signed per the Standard Webhooks scheme (headers
        <code> webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code>), at least
        once, retrying with backoff for a day.
      </p>
      <AddWebhookForm onCreated={setCreated} />
      {created ? <CreatedSecret webhook={created} onDone={() => setCreated(null)} /> : null}
      <Show loaded={webhooks}>
        {(list) =>
          list.webhooks.length === 0 ? (
            <p className="muted">No webhook yet.</p>
          ) : (
            <Scroll>
              <table data-testid="webhooks">
                <caption>Receivers of {session.orgName}’s events</caption>
                <thead>
                  <tr>
                    <th scope="col">Receiver</th>
                    <th scope="col">Events</th>
                    <th scope="col">Description</th>
                    <th scope="col">Added</th>
                    <th scope="col">
                      <span className="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.webhooks.map((w) => (
                    <tr key={w.webhookId} data-webhook={w.url} aria-selected={w.webhookId === selected}>
                      <th scope="row">
                        <code>{w.url}</code>
                      </th>
                      <td>{w.events.join(', ')}</td>
                      <td>{w.description ?? '—'}</td>
                      <td className="num">{when(w.createdAt)}</td>
                      <td>
                        <div className="buttons">
                          <button
                            type="button"
                            aria-label={`Deliveries of ${w.url}`}
                            onClick={() => setSelected(w.webhookId)}
                          >
                            Deliveries
                          </button>
                          {confirming === w.webhookId ? (
                            <button
                              type="button"
                              disabled={remove.busy}
                              onClick={async () => {
                                if (
                                  await remove.run(
                                    () => deleteWebhook(session, w.webhookId),
                                    'Webhook deleted',
                                  )
                                ) {
                                  setConfirming(null);
                                  if (selected === w.webhookId) setSelected(null);
                                }
                              }}
                            >
                              Yes, delete {w.url}
                            </button>
                          ) : (
                            <button
                              type="button"
                              aria-label={`Delete ${w.url}`}
                              onClick={() => setConfirming(w.webhookId)}
                            >
                              Delete
                            </button>
                          )}
                        </div>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </Scroll>
          )
        }
      </Show>
      {remove.message}
      {chosen ? (
        <DeliveryLog key={chosen.webhookId} webhook={chosen} onClose={() => setSelected(null)} />
      ) : null}
    </>
  );
}

function AddWebhookForm({ onCreated }: { onCreated(webhook: CreatedWebhook): void }) {
  const session = useSession();
  const add = useAction();
  const empty = { url: '', description: '', events: [] as WebhookEventType[] };
  const [form, setForm] = useState(empty);
  return (
    <form
      className="card add-webhook"
      aria-labelledby="add-webhook"
      onSubmit={async (event) => {
        event.preventDefault();
        let created: CreatedWebhook | undefined;
        const done = await add.run(async () => {
          created = await addWebhook(session, {
            url: form.url.trim(),
            events: form.events,
            ...(form.description.trim() ? { description: form.description.trim() } : {}),
          });
        }, 'Webhook added');
        if (done && created) {
          onCreated(created);
          setForm(empty);
        }
      }}
    >
      <h2 id="add-webhook">Add a webhook</h2>
      <div className="filters">
        <Field label="Receiver URL">
          {(id) => (
            <input
              id={id}
              type="url"
              className="url-input"
              required
              placeholder="https://hooks.example.com/comply"
              value={form.url}
              onChange={(e) => setForm({ ...form, url: e.target.value })}
            />
          )}
        </Field>
        <Field label="Description">
          {(id) => (
            <input
              id={id}
              value={form.description}
              onChange={(e) => setForm({ ...form, description: e.target.value })}
            />
          )}
        </Field>
      </div>
      <fieldset className="picker events">
        <legend>Events</legend>
        {WEBHOOK_EVENT_TYPES.map((type) => (
          <label key={type}>
            <input
              type="checkbox"
              checked={form.events.includes(type)}
              onChange={(e) =>
                setForm({
                  ...form,
                  events: e.target.checked ? [...form.events, type] : form.events.filter((t) => t !== type),
                })
              }
            />{' '}
            <code>{type}</code> <span className="muted">{EVENT_TEXT[type]}</span>
          </label>
        ))}
      </fieldset>
      <button type="submit" disabled={add.busy || form.events.length === 0}>
        Add webhook
      </button>
      {add.message}
    </form>
  );
}

/** The new webhook's signing secret, shown this once. */
function CreatedSecret({ webhook, onDone }: { webhook: CreatedWebhook; onDone(): void }) {
  const [copied, setCopied] = useState('');
  return (
    <section className="card invitation" aria-labelledby="webhook-secret" data-testid="webhook-secret">
      <h2 id="webhook-secret">Signing secret of {webhook.url}</h2>
      <p>
        Keep it now: it is shown only this once. The receiver verifies each delivery’s signature with it,
        using a Standard Webhooks library.
      </p>
      <div className="copy-row">
        <Field label="Signing secret">{(id) => <input id={id} readOnly value={webhook.secret} />}</Field>
        <button
          type="button"
          onClick={() =>
            navigator.clipboard.writeText(webhook.secret).then(
              () => setCopied('Secret copied'),
              () => setCopied('Copy it by hand: the browser refused'),
            )
          }
        >
          Copy secret
        </button>
        <button type="button" onClick={onDone}>
          Done
        </button>
      </div>
      <p role="status">{copied}</p>
    </section>
  );
}

/** Every delivery attempt of one webhook, newest first. */
function DeliveryLog({ webhook, onClose }: { webhook: Webhook; onClose(): void }) {
  const [offset, setOffset] = useState(0);
  const [tick, setTick] = useState(0);
  const log = useDeliveries(webhook.webhookId, offset, DELIVERIES, tick);
  return (
    <section className="panel" aria-labelledby="deliveries" data-testid="deliveries">
      <h2 id="deliveries">Deliveries to {webhook.url}</h2>
      <div className="buttons">
        <button type="button" onClick={() => setTick((n) => n + 1)}>
          Refresh
        </button>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
      <Show loaded={log}>
        {(l) =>
          l.total === 0 ? (
            <p className="muted">Nothing delivered yet.</p>
          ) : (
            <>
              <Scroll>
                <table>
                  <thead>
                    <tr>
                      <th scope="col">At</th>
                      <th scope="col">Event</th>
                      <th scope="col">Attempt</th>
                      <th scope="col">Outcome</th>
                      <th scope="col">Status</th>
                      <th scope="col">Error</th>
                      <th scope="col">Took</th>
                    </tr>
                  </thead>
                  <tbody>
                    {l.deliveries.map((d) => (
                      <tr key={`${d.eventId}-${d.attempt}`} data-event={d.type} data-outcome={d.outcome}>
                        <td className="num">{when(d.at)}</td>
                        <th scope="row">
                          {d.type} <span className="muted">{d.eventId}</span>
                        </th>
                        <td className="num">{d.attempt}</td>
                        <td>
                          <Badge kind={d.outcome}>{d.outcome}</Badge>
                        </td>
                        <td className="num">{d.statusCode ?? '—'}</td>
                        <td>{d.error ?? '—'}</td>
                        <td className="num">{d.durationMs} ms</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </Scroll>
              <Pager
                offset={offset}
                limit={DELIVERIES}
                total={l.total}
                onChange={setOffset}
                label="Deliveries"
              />
            </>
          )
        }
      </Show>
    </section>
  );
}
