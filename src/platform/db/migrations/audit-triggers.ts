/**
 * The audit trail's triggers on a table (the function they call is created by Migration20261128000200People):
 * [table, resource type, columns naming the resource (comma-separated), LIKE patterns of columns never
 * reported — bookkeeping and secrets (comma-separated), optionally a condition on the row (`$row.type <> 'x'`)].
 * Every migration that creates a table people or keys change adds its triggers with this.
 */
export type AuditedTable = [
  table: string,
  resource: string,
  idColumns: string,
  ignored: string,
  when?: string,
];

/** Deferred constraint triggers: they run at commit, after every row lock, in commit order (see the migration). */
export function auditTriggers([table, resource, idColumns, ignored, when]: AuditedTable): string[] {
  const events = when ? ['insert', 'update', 'delete'] : ['insert or update or delete'];
  return events.map((event) => {
    const row = event === 'delete' ? 'old' : 'new';
    return `create constraint trigger ${table}_audit_${event.replaceAll(' ', '_')} after ${event} on ${table}
      deferrable initially deferred for each row ${when ? `when (${when.replaceAll('$row', row)})` : ''}
      execute function comply_audit_row('${resource}', '${idColumns}', '${ignored}')`;
  });
}

export function dropAuditTriggers([table]: AuditedTable): string[] {
  return ['insert_or_update_or_delete', 'insert', 'update', 'delete'].map(
    (event) => `drop trigger if exists ${table}_audit_${event} on ${table}`,
  );
}
