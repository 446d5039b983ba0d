import { defineEntity, p } from '@mikro-orm/core';

/**
 * Append-only log of every status and applicability change (who, when, from, to).
 * Compliance history is rebuilt from it, so rows are never updated or deleted.
 */
const ControlChangeSchema = defineEntity({
  name: 'ControlChange',
  tableName: 'control_changes',
  properties: {
    id: p.bigint().primary().autoincrement(),
    orgId: p.string(),
    controlId: p.string(),
    field: p.enum(['status', 'applicable']),
    fromValue: p.string().nullable(),
    toValue: p.string(),
    actor: p.string(),
    keyId: p.string().nullable(),
    note: p.text().nullable(),
    changedAt: p.datetime(),
  },
});

export class ControlChange extends ControlChangeSchema.class {}
ControlChangeSchema.setClass(ControlChange);
