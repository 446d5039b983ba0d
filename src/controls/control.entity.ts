import { defineEntity, p } from '@mikro-orm/core';

/** One ISO/IEC 42001 Annex A control of the shared library. */
const ControlSchema = defineEntity({
  name: 'Control',
  tableName: 'controls',
  properties: {
    controlId: p.string().primary(),
    domain: p.string(),
    domainTitle: p.string(),
    title: p.string(),
    description: p.text(),
    sortOrder: p.integer(),
  },
});

export class Control extends ControlSchema.class {}
ControlSchema.setClass(Control);
