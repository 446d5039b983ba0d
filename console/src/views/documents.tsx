import { useState } from 'react';
import type { ControlledDocument, DocumentVersion, DocumentVersionList } from '../api';
import { documentHref, frameworkHref } from '../links';
import {
  approveVersion,
  createDocument,
  editDraft,
  type NewDocument,
  startDraft,
  useDocument,
  useDocuments,
  useVersion,
  useVersionDiff,
  useVersions,
} from '../resources/documents';
import { type RequirementRef, useOrgFrameworks } from '../resources/frameworks';
import { Badge, day, Field, Pager, Scroll, Show, useAction, useSession, when } from '../ui';
import { RequirementPicker, refText, useFrameworkNames } from './requirement-picker';

const KINDS: ControlledDocument['kind'][] = ['policy', 'procedure', 'plan', 'record'];
const CADENCES: { value: string; name: string }[] = [
  { value: '', name: 'no review cadence' },
  { value: 'P3M', name: 'every 3 months' },
  { value: 'P6M', name: 'every 6 months' },
  { value: 'P1Y', name: 'every year' },
  { value: 'P2Y', name: 'every 2 years' },
];
const cadenceText = (reviewEvery: string | null) =>
  reviewEvery === null ? '—' : (CADENCES.find((c) => c.value === reviewEvery)?.name ?? reviewEvery);
const PAGE = 50;

/** The controlled documents, next review soonest first, and the form that creates one. */
export function DocumentsView() {
  const session = useSession();
  const [kind, setKind] = useState('');
  const [offset, setOffset] = useState(0);
  const documents = useDocuments({ kind }, offset, PAGE);
  return (
    <>
      <h1>Documents</h1>
      <div className="filters">
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
              {KINDS.map((k) => (
                <option key={k}>{k}</option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <Show loaded={documents}>
        {(page) =>
          page.total === 0 ? (
            <p className="muted">No controlled document yet.</p>
          ) : (
            <>
              <Scroll>
                <table data-testid="documents">
                  <caption>Controlled documents, next review soonest first</caption>
                  <thead>
                    <tr>
                      <th scope="col">Document</th>
                      <th scope="col">Kind</th>
                      <th scope="col">Owner</th>
                      <th scope="col">In force</th>
                      <th scope="col">Draft</th>
                      <th scope="col">Next review</th>
                    </tr>
                  </thead>
                  <tbody>
                    {page.documents.map((d) => (
                      <tr key={d.documentId} data-document={d.title}>
                        <th scope="row">
                          <a href={documentHref(d.documentId)}>{d.title}</a>
                        </th>
                        <td>{d.kind}</td>
                        <td>{d.owner ?? '—'}</td>
                        <td>
                          {d.published
                            ? `version ${d.published.version} of ${day(d.published.publishedAt)}`
                            : '—'}
                        </td>
                        <td>{d.draft ? `version ${d.draft.version}` : '—'}</td>
                        <td className="num">
                          {day(d.nextReviewAt)}{' '}
                          {d.reviewDue ? <Badge kind="overdue">review due</Badge> : null}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </Scroll>
              <Pager offset={offset} limit={PAGE} total={page.total} onChange={setOffset} label="Documents" />
            </>
          )
        }
      </Show>
      {session.can.write ? <CreateDocumentForm /> : null}
    </>
  );
}

function CreateDocumentForm() {
  const session = useSession();
  const frameworks = useOrgFrameworks();
  const create = useAction();
  const empty = () => ({
    title: '',
    kind: 'policy' as ControlledDocument['kind'],
    owner: session.person?.name ?? '',
    reviewEvery: 'P1Y',
    requirements: [] as RequirementRef[],
  });
  const [form, setForm] = useState(empty);
  const frameworkIds = (frameworks.data?.frameworks ?? []).map((f) => f.frameworkId);
  return (
    <form
      className="card"
      aria-labelledby="create-document"
      onSubmit={async (event) => {
        event.preventDefault();
        const body: NewDocument = {
          title: form.title.trim(),
          kind: form.kind,
          requirements: form.requirements,
          ...(form.owner.trim() ? { owner: form.owner.trim() } : {}),
          ...(form.reviewEvery ? { reviewEvery: form.reviewEvery } : {}),
        };
        let created: ControlledDocument | undefined;
        const done = await create.run(async () => {
          created = await createDocument(session, body);
        }, 'Document created');
        if (done && created) {
          setForm(empty());
          window.location.hash = documentHref(created.documentId);
        }
      }}
    >
      <h2 id="create-document">Create a document</h2>
      <div className="filters">
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
        <Field label="Kind">
          {(id) => (
            <select
              id={id}
              value={form.kind}
              onChange={(e) => setForm({ ...form, kind: e.target.value as ControlledDocument['kind'] })}
            >
              {KINDS.map((k) => (
                <option key={k}>{k}</option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Owner">
          {(id) => (
            <input id={id} value={form.owner} onChange={(e) => setForm({ ...form, owner: e.target.value })} />
          )}
        </Field>
        <Field label="Review">
          {(id) => (
            <select
              id={id}
              value={form.reviewEvery}
              onChange={(e) => setForm({ ...form, reviewEvery: e.target.value })}
            >
              {CADENCES.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.name}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      {frameworkIds.length ? (
        <RequirementPicker
          frameworkIds={frameworkIds}
          value={form.requirements}
          onChange={(requirements) => setForm({ ...form, requirements })}
        />
      ) : null}
      <p className="muted">
        Each published version becomes evidence on the requirements the document serves.
      </p>
      <button type="submit" disabled={create.busy}>
        Create document
      </button>
      {create.message}
    </form>
  );
}

/**
 * One document: the version in force (shown even while a draft exists), the draft with its edit and approval,
 * every version, and the diff of any two.
 */
export function DocumentView({ documentId }: { documentId: string }) {
  const document = useDocument(documentId);
  const versions = useVersions(documentId);
  const nameOf = useFrameworkNames();
  return (
    <Show loaded={document}>
      {(d) => (
        <>
          <p>
            <a href={documentHref()}>Documents</a>
          </p>
          <h1>
            {d.title} <Badge kind={d.kind}>{d.kind}</Badge>
          </h1>
          <div className="grid">
            <section className="card" aria-labelledby="document-facts">
              <h2 id="document-facts">Document</h2>
              <dl className="facts">
                <dt>Owner</dt>
                <dd>{d.owner ?? '—'}</dd>
                <dt>Review</dt>
                <dd>{cadenceText(d.reviewEvery)}</dd>
                <dt>Next review</dt>
                <dd data-testid="next-review">
                  {day(d.nextReviewAt)} {d.reviewDue ? <Badge kind="overdue">review due</Badge> : null}
                </dd>
                <dt>Serves</dt>
                <dd>
                  {d.requirements.length === 0
                    ? '—'
                    : d.requirements.map((r, i) => (
                        <span key={refText(r)}>
                          {i ? ', ' : ''}
                          <a href={frameworkHref(r.frameworkId, r.requirementId)}>
                            {nameOf(r.frameworkId)} {r.requirementId}
                          </a>
                        </span>
                      ))}
                </dd>
                <dt>Created</dt>
                <dd>
                  {when(d.createdAt)}
                  {d.createdBy ? ` by ${d.createdBy.name}` : ''}
                </dd>
              </dl>
            </section>
            <Published document={d} />
          </div>
          <Draft key={d.draft?.versionId ?? 'none'} document={d} />
          <Show loaded={versions}>{(list) => <Versions document={d} list={list} />}</Show>
        </>
      )}
    </Show>
  );
}

/** A version's text: its Markdown as written, or the link to its file. */
function VersionText({ version }: { version: DocumentVersion }) {
  return version.content !== null ? (
    <pre className="document-content" data-testid={`content-${version.version}`}>
      {version.content}
    </pre>
  ) : (
    <p>
      Kept as a file: <a href={version.fileUrl ?? undefined}>{version.fileUrl}</a>
    </p>
  );
}

function Published({ document }: { document: ControlledDocument }) {
  const published = useVersion(document.documentId, document.published?.versionId);
  return (
    <section className="card" aria-labelledby="in-force" data-testid="published">
      <h2 id="in-force">In force</h2>
      {document.published === null ? (
        <p className="muted">Nothing is published yet: a draft becomes the version in force once approved.</p>
      ) : (
        <>
          <p>
            Version {document.published.version}, published {when(document.published.publishedAt)}
            {document.published.approvedBy ? `, approved by ${document.published.approvedBy.name}` : ''}
          </p>
          <p className="muted">
            Content hash <code>{document.published.contentHash}</code>
          </p>
          <p>
            <strong>Changes:</strong> {document.published.changelog}
          </p>
          <Show loaded={published}>{(v) => (v ? <VersionText version={v} /> : null)}</Show>
        </>
      )}
    </section>
  );
}

/** The draft: its text, its edit (writers) and its approval (a second person); or the form that starts one. */
function Draft({ document }: { document: ControlledDocument }) {
  const session = useSession();
  const draft = useVersion(document.documentId, document.draft?.versionId);
  const published = useVersion(document.documentId, document.published?.versionId);
  if (document.draft === null) {
    if (!session.can.write) return null;
    return (
      <Show loaded={published}>
        {(p) => (
          <DraftForm
            document={document}
            initial={{ content: p?.content ?? '', fileUrl: p?.fileUrl ?? '', changelog: '' }}
            next={(document.published?.version ?? 0) + 1}
          />
        )}
      </Show>
    );
  }
  const summary = document.draft;
  const me = session.person?.userId;
  const wrote = [summary.author, ...summary.editors].some((w) => w.type === 'user' && w.id === me);
  return (
    <section className="card draft" aria-labelledby="draft" data-testid="draft">
      <h2 id="draft">
        Draft: version {summary.version} <Badge kind="draft">draft</Badge>
      </h2>
      <p>
        Started {when(summary.createdAt)} by {summary.author.name}
        {summary.editors.length ? `, edited by ${summary.editors.map((e) => e.name).join(', ')}` : ''}.{' '}
        {document.published
          ? `Version ${document.published.version} stays in force until this one is approved.`
          : 'Nothing is in force until it is approved.'}
      </p>
      <p>
        <strong>Changes:</strong> {summary.changelog}
      </p>
      <Show loaded={draft}>
        {(v) =>
          v ? (
            <>
              <VersionText version={v} />
              {session.can.write ? (
                <DraftForm
                  document={document}
                  draft={v}
                  initial={{ content: v.content ?? '', fileUrl: v.fileUrl ?? '', changelog: v.changelog }}
                  next={v.version}
                />
              ) : null}
            </>
          ) : null
        }
      </Show>
      <Approve document={document} wrote={wrote} />
    </section>
  );
}

function Approve({ document, wrote }: { document: ControlledDocument; wrote: boolean }) {
  const session = useSession();
  const approve = useAction();
  const draft = document.draft;
  if (!draft) return null;
  if (!(session.kind === 'user' && session.can.approve)) {
    return (
      <p className="muted">
        An approver or owner, signed in as a person, who did not write the draft approves and publishes it.
      </p>
    );
  }
  if (wrote) {
    return <p className="muted">You wrote this draft: a second person approves and publishes it.</p>;
  }
  return (
    <div className="approve">
      <button
        type="button"
        disabled={approve.busy}
        onClick={() =>
          approve.run(
            () => approveVersion(session, document.documentId, draft.versionId),
            `Version ${draft.version} approved and published`,
          )
        }
      >
        Approve and publish version {draft.version}
      </button>
      {approve.message}
    </div>
  );
}

/** Starts the next version (prefilled with the one in force), or edits the draft. */
function DraftForm({
  document,
  draft,
  initial,
  next,
}: {
  document: ControlledDocument;
  draft?: DocumentVersion;
  initial: { content: string; fileUrl: string; changelog: string };
  next: number;
}) {
  const session = useSession();
  const save = useAction();
  const [form, setForm] = useState(initial);
  const [asFile, setAsFile] = useState(initial.fileUrl !== '' && initial.content === '');
  const text = asFile ? { fileUrl: form.fileUrl.trim() } : { content: form.content };
  return (
    <form
      className={draft ? 'draft-form' : 'card draft'}
      aria-labelledby={draft ? 'edit-draft' : 'start-draft'}
      onSubmit={async (event) => {
        event.preventDefault();
        if (draft) {
          await save.run(
            () =>
              editDraft(session, document.documentId, draft.versionId, {
                ...text,
                changelog: form.changelog,
              }),
            'Draft saved',
          );
        } else {
          await save.run(
            () => startDraft(session, document.documentId, { ...text, changelog: form.changelog }),
            `Draft of version ${next} started`,
          );
        }
      }}
    >
      {draft ? <h3 id="edit-draft">Edit the draft</h3> : <h2 id="start-draft">Start version {next}</h2>}
      <fieldset className="segmented">
        <legend>Kept as</legend>
        <label>
          <input type="radio" name="kept-as" checked={!asFile} onChange={() => setAsFile(false)} />
          Markdown
        </label>
        <label>
          <input type="radio" name="kept-as" checked={asFile} onChange={() => setAsFile(true)} />a file URL
        </label>
      </fieldset>
      {asFile ? (
        <Field label="File URL">
          {(id) => (
            <input
              id={id}
              type="url"
              required
              value={form.fileUrl}
              onChange={(e) => setForm({ ...form, fileUrl: e.target.value })}
            />
          )}
        </Field>
      ) : (
        <Field label="Content (Markdown)">
          {(id) => (
            <textarea
              id={id}
              className="document-editor"
              value={form.content}
              onChange={(e) => setForm({ ...form, content: e.target.value })}
            />
          )}
        </Field>
      )}
      <Field label="Changelog">
        {(id) => (
          <input
            id={id}
            required
            value={form.changelog}
            onChange={(e) => setForm({ ...form, changelog: e.target.value })}
          />
        )}
      </Field>
      <button type="submit" disabled={save.busy || !form.changelog.trim()}>
        {draft ? 'Save draft' : 'Start draft'}
      </button>
      {save.message}
    </form>
  );
}

/** Every version, newest first, and the diff of any two. */
function Versions({ document, list }: { document: ControlledDocument; list: DocumentVersionList }) {
  const versions = list.versions;
  const [from, setFrom] = useState(versions[1]?.versionId ?? '');
  const [to, setTo] = useState(versions[0]?.versionId ?? '');
  if (versions.length === 0) return null;
  const name = (versionId: string) => {
    const v = versions.find((candidate) => candidate.versionId === versionId);
    return v ? `version ${v.version} (${v.state})` : versionId;
  };
  return (
    <section className="card" aria-labelledby="versions">
      <h2 id="versions">Versions</h2>
      <Scroll>
        <table data-testid="versions">
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col">State</th>
              <th scope="col">Changes</th>
              <th scope="col">Author</th>
              <th scope="col">Approved by</th>
              <th scope="col">Published</th>
              <th scope="col">Superseded</th>
            </tr>
          </thead>
          <tbody>
            {versions.map((v) => (
              <tr key={v.versionId} data-version={v.version}>
                <th scope="row">{v.version}</th>
                <td>
                  <Badge kind={v.state}>{v.state}</Badge>
                </td>
                <td>{v.changelog}</td>
                <td>{v.author.name}</td>
                <td>{v.approvedBy?.name ?? '—'}</td>
                <td className="num">{when(v.publishedAt)}</td>
                <td className="num">{when(v.supersededAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Scroll>
      {versions.length > 1 ? (
        <>
          <h3>Compare two versions</h3>
          <div className="filters">
            {(
              [
                ['From', from, setFrom],
                ['To', to, setTo],
              ] as const
            ).map(([text, value, set]) => (
              <Field key={text} label={`${text} version`}>
                {(id) => (
                  <select id={id} value={value} onChange={(e) => set(e.target.value)}>
                    {versions.map((v) => (
                      <option key={v.versionId} value={v.versionId}>
                        version {v.version} ({v.state})
                      </option>
                    ))}
                  </select>
                )}
              </Field>
            ))}
          </div>
          {from && to && from !== to ? (
            <Diff
              documentId={document.documentId}
              from={from}
              to={to}
              title={`${name(from)} → ${name(to)}`}
            />
          ) : (
            <p className="muted">Choose two different versions.</p>
          )}
        </>
      ) : null}
    </section>
  );
}

function Diff({
  documentId,
  from,
  to,
  title,
}: {
  documentId: string;
  from: string;
  to: string;
  title: string;
}) {
  const diff = useVersionDiff(documentId, from, to);
  return (
    <Show loaded={diff}>
      {(d) =>
        d.changes.length === 0 ? (
          <p>The two versions say the same.</p>
        ) : (
          <figure className="diff-box">
            <figcaption>
              {title}: lines starting with − are only in the first, + only in the second
            </figcaption>
            {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard */}
            <pre className="diff" data-testid="diff" tabIndex={0}>
              {d.changes.map((hunk) => (
                <span key={`${hunk.oldStart}-${hunk.newStart}`}>
                  <span className="diff-hunk">
                    @@ −{hunk.oldStart},{hunk.oldLines} +{hunk.newStart},{hunk.newLines} @@
                  </span>
                  {'\n'}
                  {hunk.lines.map((line, i) => (
                    <span
                      // biome-ignore lint/suspicious/noArrayIndexKey: lines of a hunk have no ids
                      key={i}
                      className={
                        line.startsWith('+') ? 'diff-add' : line.startsWith('-') ? 'diff-del' : undefined
                      }
                    >
                      {line}
                      {'\n'}
                    </span>
                  ))}
                </span>
              ))}
            </pre>
          </figure>
        )
      }
    </Show>
  );
}
