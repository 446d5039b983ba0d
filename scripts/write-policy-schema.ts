// Writes comply.policy.schema.json from the policy schema in src/clients/gate/policy.schema.ts (the one source);
// test/check/policy.test.ts fails while the two differ. Run: npx tsx scripts/write-policy-schema.ts
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { policyJsonSchema } from '../src/clients/gate/policy.schema.js';

const POLICY_SCHEMA_FILE = path.resolve(import.meta.dirname, '../comply.policy.schema.json');

writeFileSync(POLICY_SCHEMA_FILE, `${JSON.stringify(policyJsonSchema(), null, 2)}\n`);
console.log(`wrote ${POLICY_SCHEMA_FILE}`);
