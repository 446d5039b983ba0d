import { useEffect, useRef, useState } from 'react';
import { MEMBER_ROLES, type MemberRole } from '../../../src/shared/vocabulary.js';
import type { CreatedMember, FrameworkList, Member } from '../api';
import {
  inviteMember,
  type MemberChange,
  removeMember,
  updateMember,
  useFrameworkLibrary,
  useMembers,
} from '../resources/members';
import { Badge, day, Field, Scroll, Show, useAction, useSession, when } from '../ui';

type Framework = FrameworkList['frameworks'][number];

/** What each role may do, as the role picker explains it. */
const ROLE_TEXT: Record<MemberRole, string> = {
  viewer: 'viewer: reads',
  editor: 'editor: reads and changes records',
  approver: 'approver: also approves',
  owner: 'owner: everything, members and keys included',
  auditor: 'auditor: reads and exports, until a date',
};

/** An auditor's access ends at the end of the chosen day (UTC), and is shown as that day. */
const endOfDay = (date: string) => `${date}T23:59:59.000Z`;

/** The members of the org (owners and platform administrators): invite, change roles, disable, remove. */
export function MembersView() {
  const session = useSession();
  const members = useMembers();
  const frameworks = useFrameworkLibrary();
  const [editing, setEditing] = useState<string | null>(null);
  const [removed, setRemoved] = useState('');
  const library = frameworks.data?.frameworks ?? [];
  const names = new Map(library.map((f) => [f.id, f.name]));
  const selected = members.data?.members.find((m) => m.userId === editing);
  return (
    <>
      <h1>Members · {session.orgName}</h1>
      <InviteForm frameworks={library} />
      <Show loaded={members}>
        {(list) => (
          <Scroll>
            <table data-testid="members">
              <caption>Who may sign in to {session.orgName}</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Email</th>
                  <th scope="col">Role</th>
                  <th scope="col">Status</th>
                  <th scope="col">Last sign-in</th>
                  <th scope="col">Auditor access</th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.members.map((m) => (
                  <tr key={m.userId} data-member={m.email} aria-selected={m.userId === editing}>
                    <th scope="row">
                      {m.name}
                      {m.userId === session.person?.userId ? <span className="muted"> (you)</span> : null}
                    </th>
                    <td>{m.email}</td>
                    <td>{m.role}</td>
                    <td>
                      <Badge kind={m.status}>{m.status}</Badge>
                    </td>
                    <td>{m.lastSignInAt ? when(m.lastSignInAt) : 'never'}</td>
                    <td>{m.role === 'auditor' ? auditorAccess(m, names) : '—'}</td>
                    <td>
                      <button
                        type="button"
                        aria-label={`Edit ${m.name}`}
                        onClick={() => {
                          setEditing(m.userId);
                          setRemoved('');
                        }}
                      >
                        Edit
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Scroll>
        )}
      </Show>
      {selected ? (
        <MemberPanel
          key={selected.userId}
          member={selected}
          frameworks={library}
          onClose={() => setEditing(null)}
          onRemoved={(name) => {
            setEditing(null);
            setRemoved(`${name} removed`);
          }}
        />
      ) : null}
      <p role="status" className="ok">
        {removed}
      </p>
    </>
  );
}

const auditorAccess = (m: Member, names: Map<string, string>) =>
  `until ${day(m.expiresAt)} · ${
    m.frameworkIds?.length ? m.frameworkIds.map((id) => names.get(id) ?? id).join(', ') : 'every framework'
  }`;

function RolePicker({ value, onChange }: { value: MemberRole; onChange(role: MemberRole): void }) {
  return (
    <Field label="Role">
      {(id) => (
        <select id={id} value={value} onChange={(e) => onChange(e.target.value as MemberRole)}>
          {MEMBER_ROLES.map((role) => (
            <option key={role} value={role}>
              {ROLE_TEXT[role]}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** The frameworks an auditor may read; none ticked means every framework. */
function FrameworkPicker({
  frameworks,
  selected,
  onChange,
}: {
  frameworks: Framework[];
  selected: string[];
  onChange(ids: string[]): void;
}) {
  return (
    <fieldset className="picker">
      <legend>Frameworks the auditor may read (none ticked: every framework)</legend>
      {frameworks.map((f) => (
        <label key={f.id}>
          <input
            type="checkbox"
            checked={selected.includes(f.id)}
            onChange={(e) =>
              onChange(e.target.checked ? [...selected, f.id] : selected.filter((id) => id !== f.id))
            }
          />{' '}
          {f.name}
        </label>
      ))}
    </fieldset>
  );
}

/** An auditor's end date and frameworks. */
function AuditorAccess({
  expires,
  frameworkIds,
  frameworks,
  onChange,
}: {
  expires: string;
  frameworkIds: string[];
  frameworks: Framework[];
  onChange(change: { expires?: string; frameworkIds?: string[] }): void;
}) {
  return (
    <>
      <Field label="Access until">
        {(id) => (
          <input
            id={id}
            type="date"
            required
            value={expires}
            onChange={(e) => onChange({ expires: e.target.value })}
          />
        )}
      </Field>
      <FrameworkPicker
        frameworks={frameworks}
        selected={frameworkIds}
        onChange={(ids) => onChange({ frameworkIds: ids })}
      />
    </>
  );
}

function InviteForm({ frameworks }: { frameworks: Framework[] }) {
  const session = useSession();
  const invite = useAction();
  const empty = {
    email: '',
    name: '',
    role: 'viewer' as MemberRole,
    expires: '',
    frameworkIds: [] as string[],
  };
  const [form, setForm] = useState(empty);
  const [created, setCreated] = useState<CreatedMember | null>(null);
  const auditor = form.role === 'auditor';
  return (
    <section className="card" aria-labelledby="invite-heading">
      <h2 id="invite-heading">Invite a person</h2>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          setCreated(null);
          const done = await invite.run(async () => {
            setCreated(
              await inviteMember(session, {
                email: form.email.trim(),
                name: form.name.trim(),
                role: form.role,
                ...(auditor
                  ? {
                      expiresAt: endOfDay(form.expires),
                      ...(form.frameworkIds.length ? { frameworkIds: form.frameworkIds } : {}),
                    }
                  : {}),
              }),
            );
          }, 'Invitation created');
          if (done) setForm(empty);
        }}
      >
        <div className="filters">
          <Field label="Email">
            {(id) => (
              <input
                id={id}
                type="email"
                required
                autoComplete="off"
                value={form.email}
                onChange={(e) => setForm({ ...form, email: e.target.value })}
              />
            )}
          </Field>
          <Field label="Name">
            {(id) => (
              <input
                id={id}
                required
                autoComplete="off"
                value={form.name}
                onChange={(e) => setForm({ ...form, name: e.target.value })}
              />
            )}
          </Field>
          <RolePicker value={form.role} onChange={(role) => setForm({ ...form, role })} />
        </div>
        {auditor ? (
          <AuditorAccess
            expires={form.expires}
            frameworkIds={form.frameworkIds}
            frameworks={frameworks}
            onChange={({ expires = form.expires, frameworkIds = form.frameworkIds }) =>
              setForm({ ...form, expires, frameworkIds })
            }
          />
        ) : null}
        <button type="submit" disabled={invite.busy}>
          Invite
        </button>
        {invite.message}
      </form>
      {created ? <InvitationLink created={created} /> : null}
    </section>
  );
}

/** The one-time link of a new invitation: shown once, with a copy button. */
function InvitationLink({ created }: { created: CreatedMember }) {
  const [copied, setCopied] = useState('');
  return (
    <div className="invitation" data-testid="invitation">
      <p>
        Send this link to {created.name} ({created.email}). It is shown only now and works once, until{' '}
        {when(created.invitation.expiresAt)}.
      </p>
      <div className="copy-row">
        <Field label="Invitation link">
          {(id) => (
            <input
              id={id}
              readOnly
              value={created.invitation.url}
              onFocus={(e) => e.currentTarget.select()}
            />
          )}
        </Field>
        <button
          type="button"
          onClick={async () => {
            try {
              await navigator.clipboard.writeText(created.invitation.url);
              setCopied('Link copied');
            } catch {
              setCopied('Copying is not allowed here: select the link and copy it.');
            }
          }}
        >
          Copy link
        </button>
      </div>
      <p role="status" className="ok">
        {copied}
      </p>
    </div>
  );
}

/** One member opened for editing: role, auditor access, disable or enable, remove. */
function MemberPanel({
  member,
  frameworks,
  onClose,
  onRemoved,
}: {
  member: Member;
  frameworks: Framework[];
  onClose(): void;
  onRemoved(name: string): void;
}) {
  const session = useSession();
  const save = useAction();
  const status = useAction();
  const remove = useAction();
  const [confirming, setConfirming] = useState(false);
  const [form, setForm] = useState({
    role: member.role,
    expires: member.expiresAt ? member.expiresAt.slice(0, 10) : '',
    frameworkIds: member.frameworkIds ?? [],
  });
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const auditor = form.role === 'auditor';
  const change = (): MemberChange =>
    auditor
      ? {
          role: form.role,
          expiresAt: endOfDay(form.expires),
          frameworkIds: form.frameworkIds.length ? form.frameworkIds : null,
        }
      : { role: form.role };
  const disabled = member.status === 'disabled';
  return (
    <section className="panel" aria-labelledby="member-heading" data-testid="member-panel">
      <h2 id="member-heading" tabIndex={-1} ref={heading}>
        {member.name}
      </h2>
      <button type="button" className="link close" onClick={onClose}>
        Close
      </button>
      <p className="muted">
        {member.email} · {member.status} · invited {when(member.createdAt)}
      </p>
      <div className="edits">
        <form
          aria-labelledby="member-role-heading"
          onSubmit={(event) => {
            event.preventDefault();
            save.run(() => updateMember(session, member.userId, change()), 'Member saved');
          }}
        >
          <h3 id="member-role-heading">Role and access</h3>
          <RolePicker value={form.role} onChange={(role) => setForm({ ...form, role })} />
          {auditor ? (
            <AuditorAccess
              expires={form.expires}
              frameworkIds={form.frameworkIds}
              frameworks={frameworks}
              onChange={({ expires = form.expires, frameworkIds = form.frameworkIds }) =>
                setForm({ ...form, expires, frameworkIds })
              }
            />
          ) : null}
          <button type="submit" disabled={save.busy}>
            Save changes
          </button>
          {save.message}
        </form>
        <div>
          <h3>Sign-in</h3>
          <p className="muted">
            {disabled
              ? 'Disabled: this person cannot sign in.'
              : 'Disabling ends this person’s sessions at once and stops them signing in.'}
          </p>
          <button
            type="button"
            disabled={status.busy}
            onClick={() =>
              status.run(
                () => updateMember(session, member.userId, { status: disabled ? 'active' : 'disabled' }),
                disabled ? 'Member enabled' : 'Member disabled',
              )
            }
          >
            {disabled ? `Enable ${member.name}` : `Disable ${member.name}`}
          </button>
          {status.message}
          <h3>Remove</h3>
          {confirming ? (
            <div className="buttons">
              <button
                type="button"
                disabled={remove.busy}
                onClick={async () => {
                  if (await remove.run(() => removeMember(session, member.userId), 'Member removed'))
                    onRemoved(member.name);
                }}
              >
                Yes, remove {member.name}
              </button>
              <button type="button" onClick={() => setConfirming(false)}>
                Cancel
              </button>
            </div>
          ) : (
            <button type="button" onClick={() => setConfirming(true)}>
              Remove {member.name}
            </button>
          )}
          {remove.message}
        </div>
      </div>
    </section>
  );
}
