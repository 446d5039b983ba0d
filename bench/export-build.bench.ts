/**
 * Time of the pure export steps for an organization with 38 controls and 100k evidence items:
 * OSCAL build, schema validation, reference checks, serialization, zip, and the four SoA formats.
 * Run: npx tsx bench/export-build.bench.ts [evidenceCount] [rounds]
 */
import { Readable } from 'node:stream';
import {
  buildOscalPackage,
  checkOscalConstraints,
  checkOscalReferences,
  type OscalDocumentKind,
  validateOscalDocument,
  warmOscalValidators,
} from '../src/features/exports/oscal/index.js';
import { zipIntoSpool } from '../src/features/exports/oscal/oscal-zip.js';
import { renderSoa, SOA_FORMATS } from '../src/features/exports/soa/index.js';
import { Spool } from '../src/features/exports/spool.js';
import { evidenceSpread, exportData } from '../test/exports/export-data.factory.js';

const evidenceCount = Number(process.argv[2] ?? 100_000);
const rounds = Number(process.argv[3] ?? 3);

const KINDS: Record<string, OscalDocumentKind> = {
  'catalog.json': 'catalog',
  'profile.json': 'profile',
  'ssp.json': 'ssp',
  'assessment-plan.json': 'assessment-plan',
  'assessment-results.json': 'assessment-results',
};

async function time<T>(
  label: string,
  timings: Map<string, number[]>,
  step: () => T | Promise<T>,
): Promise<T> {
  const start = performance.now();
  const result = await step();
  const list = timings.get(label) ?? [];
  list.push(performance.now() - start);
  timings.set(label, list);
  return result;
}

const data = exportData({ evidenceFor: evidenceSpread(evidenceCount) });
const warmStart = performance.now();
warmOscalValidators();
console.log(`schema compilation (once per process): ${(performance.now() - warmStart).toFixed(0)} ms`);
console.log(
  `38 controls, ${evidenceCount} evidence items, ${rounds} rounds; ms per step (min / median / max)`,
);

const timings = new Map<string, number[]>();
for (let round = 0; round < rounds; round++) {
  const pkg = await time('oscal: build', timings, () => buildOscalPackage(data));
  await time('oscal: validate (schemas, once per document)', timings, () => {
    for (const [file, document] of Object.entries(pkg['oscal-package'].documents)) {
      const result = validateOscalDocument(KINDS[file], document);
      if (!result.valid) throw new Error(`${file} is invalid: ${JSON.stringify(result.errors.slice(0, 3))}`);
    }
  });
  await time('oscal: references + constraints', timings, () => {
    const problems = [...checkOscalReferences(pkg), ...checkOscalConstraints(pkg)];
    if (problems.length > 0) throw new Error(`dangling references: ${JSON.stringify(problems.slice(0, 3))}`);
  });
  const json = await time('oscal: JSON.stringify', timings, () => JSON.stringify(pkg));
  // The archive as the export writes it: each document deflated into a spool (here from its JSON text).
  const zip = await time('oscal: zip', timings, async () => {
    const spool = new Spool();
    const sources = Object.entries(pkg['oscal-package'].documents).map(([name, document]) => ({
      name,
      stream: () => Readable.from([JSON.stringify(document)]),
    }));
    const range = await zipIntoSpool(sources, new Date(), spool);
    spool.release();
    return { length: range.end - range.start };
  });
  if (round === 0) {
    console.log(
      `package: ${(json.length / 1e6).toFixed(1)} MB JSON, ${(zip.length / 1e6).toFixed(1)} MB zip`,
    );
  }
  for (const format of SOA_FORMATS) await time(`soa: ${format}`, timings, () => renderSoa(data, format));
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
for (const [label, values] of timings) {
  const figures = [Math.min(...values), median(values), Math.max(...values)].map((v) =>
    v.toFixed(0).padStart(6),
  );
  console.log(`${label.padEnd(48)} ${figures.join(' /')}`);
}
