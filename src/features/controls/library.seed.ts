import { readFileSync } from 'node:fs';
import type { Em } from '../../platform/db/database.js';
import { seedIsoRecords } from '../../records/records.store.js';
import { ISO_42001, type RequirementStatus } from '../../shared/vocabulary.js';
import { upsertControls } from './controls.store.js';

export interface LibraryControl {
  controlId: string;
  domain: string;
  title: string;
  description: string;
}

export interface ControlLibrary {
  standard: string;
  domains: { id: string; title: string }[];
  controls: LibraryControl[];
}

/** The one ISO/IEC 42001 fixture: the crosswalk engine reads the same file as a framework of its library. */
export const ISO_42001_FIXTURE = new URL(`../../../fixtures/frameworks/${ISO_42001}.json`, import.meta.url);

let library: ControlLibrary | undefined;

/** The ISO/IEC 42001:2023 Annex A control library, derived from the framework fixture (read once). */
export function controlLibrary(): ControlLibrary {
  library ??= controlLibraryOf(JSON.parse(readFileSync(ISO_42001_FIXTURE, 'utf8')) as IsoFrameworkFile);
  return library;
}

interface IsoFrameworkFile {
  name: string;
  domains: { id: string; title: string }[];
  requirements: { id: string; domain: string; title: string; description: string }[];
}

function controlLibraryOf(framework: IsoFrameworkFile): ControlLibrary {
  return {
    standard: framework.name,
    domains: framework.domains.map(({ id, title }) => ({ id, title })),
    controls: framework.requirements.map(({ id, domain, title, description }) => ({
      controlId: id,
      domain,
      title,
      description,
    })),
  };
}

export const DOMAIN_IDS = () => controlLibrary().domains.map((domain) => domain.id);

/** Upserts the library in one statement; safe to run at every start. New controls reach existing orgs too. */
export async function seedControlLibrary(em: Em): Promise<void> {
  const { domains, controls } = controlLibrary();
  const domainTitle = new Map(domains.map((domain) => [domain.id, domain.title]));
  await em.transactional(async (tx) => {
    await upsertControls(
      tx,
      controls.map((control) => ({
        ...control,
        domainTitle: domainTitle.get(control.domain) ?? control.domain,
      })),
    );
    await seedIsoRecords(tx);
  });
}

/** A library control with its domain title and the org's record of it. */
export interface ControlWithRecord<R> extends LibraryControl {
  domainTitle: string;
  record: R;
}

/**
 * The org's ISO/IEC 42001 records joined with the library, in library order; controls without a record are
 * left out. Every view of an org's controls (list, score, snapshot, export) reads them through this join.
 */
export function withLibraryControls<R extends { requirementId: string }>(
  records: readonly R[],
): ControlWithRecord<R>[] {
  const { domains, controls } = controlLibrary();
  const titles = new Map(domains.map((domain) => [domain.id, domain.title]));
  const byId = new Map(records.map((record) => [record.requirementId, record]));
  return controls.flatMap((control) => {
    const record = byId.get(control.controlId);
    return record ? [{ ...control, domainTitle: titles.get(control.domain) ?? control.domain, record }] : [];
  });
}

/** The judgement every view of a control shows; ISO 42001 records always hold a status and an applicability. */
export function controlJudgement(record: {
  status: RequirementStatus | null;
  applicable: boolean | null;
  justification: string | null;
  reviewer: string | null;
  updatedAt: string;
}) {
  return {
    status: record.status ?? 'not_started',
    applicable: record.applicable ?? true,
    justification: record.justification,
    reviewer: record.reviewer,
    updatedAt: record.updatedAt,
  };
}
