/**
 * Shared by the assessment tests: the shipped crosswalk read straight from `fixtures/` (so that tests can
 * state the premises their expectations rest on), an independent oracle of what one implemented record
 * gives every other requirement under the propagation rule of `src/features/cte/graph.ts`, and small API helpers.
 */
import { readFileSync } from 'node:fs';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { TestApp } from '../support/app.js';

export type Status = 'not_started' | 'in_progress' | 'implemented';
export type Assessment = 'direct' | 'inferred' | 'none';
type Relationship = 'equal' | 'subset' | 'superset' | 'intersect';

export interface Ref {
  frameworkId: string;
  requirementId: string;
}

interface Edge {
  source: Ref;
  target: Ref;
  relationship: Relationship;
  origin: string;
  inferred: boolean;
}

export interface Entry {
  orgId?: string;
  frameworkId?: string;
  requirementId: string;
  title: string;
  domain?: string;
  status: Status;
  applicable: boolean;
  justification: string | null;
  reviewer: string | null;
  owner: string | null;
  note: string | null;
  updatedAt: string | null;
  assessment: Assessment;
  inferred: {
    status: Status;
    coverage: 'covered' | 'partial' | 'uncovered';
    from: Ref[];
    justifications?: {
      frameworkId: string;
      controlId: string;
      controlStatus: Status;
      credit: 'full' | 'partial' | 'joint';
      strength: number;
      path: { from: Ref; to: Ref; relationship: string; credit: string; text: string }[];
    }[];
  };
  evidenceCount: number;
  evidenceExpired: boolean;
  evidence: { evidenceId: string; type: string; title: string; createdAt: string; expired: boolean }[];
}

export interface Counts {
  implemented: number;
  inProgress: number;
  notStarted: number;
  notApplicable: number;
}

export const counts = (implemented: number, inProgress: number, notStarted: number, notApplicable = 0) => ({
  implemented,
  inProgress,
  notStarted,
  notApplicable,
});

/** 100 × (implemented + 0.5 × in progress) / applicable, one decimal (the contract's formula). */
export function scoreFor(c: Counts): number | null {
  const applicable = c.implemented + c.inProgress + c.notStarted;
  return applicable === 0
    ? null
    : Math.round((1000 * (c.implemented + 0.5 * c.inProgress)) / applicable) / 10;
}

export const BUILTIN = [
  'iso-42001',
  'nist-ai-rmf',
  'eu-ai-act',
  'iso-27001',
  'gdpr',
  'iso-42001-clauses',
  'iso-27001-clauses',
] as const;

const FIXTURES = new URL('../../fixtures/', import.meta.url);
const readJson = (url: URL) => JSON.parse(readFileSync(url, 'utf8'));

export const crosswalk: readonly Edge[] = readJson(new URL('crosswalk.json', FIXTURES)).edges;

const requirementsCache = new Map<string, string[]>();
/** A built-in framework's requirement ids, in fixture order. */
export function requirementIds(frameworkId: string): string[] {
  let ids = requirementsCache.get(frameworkId);
  if (!ids) {
    const framework = readJson(new URL(`frameworks/${frameworkId}.json`, FIXTURES));
    ids = (framework.requirements as { id: string }[]).map((requirement) => requirement.id);
    requirementsCache.set(frameworkId, ids);
  }
  return ids;
}

/** A built-in framework's provisions that bind no organization (penalties, dates): never gaps. */
export function bindingNoOne(frameworkId: string): Set<string> {
  const framework = readJson(new URL(`frameworks/${frameworkId}.json`, FIXTURES));
  return new Set(
    (framework.requirements as { id: string; bindsNoOne?: true }[])
      .filter((requirement) => requirement.bindsNoOne)
      .map((requirement) => requirement.id),
  );
}

const INVERSE: Record<Relationship, Relationship> = {
  equal: 'equal',
  subset: 'superset',
  superset: 'subset',
  intersect: 'intersect',
};

const keyOf = (ref: Ref) => `${ref.frameworkId}\u001f${ref.requirementId}`;

export interface Neighbour {
  ref: Ref;
  /** The relationship read from the requirement asked about to this neighbour. */
  relationship: Relationship;
  /** The edge is an analyst's inference (no source states it). */
  inferred: boolean;
}

let adjacency: Map<string, Neighbour[]> | undefined;

/** Every requirement one crosswalk edge away, in either direction (in crosswalk order). */
export function neighbours(ref: Ref): Neighbour[] {
  if (!adjacency) {
    adjacency = new Map();
    const add = (from: Ref, neighbour: Neighbour) => {
      const list = adjacency!.get(keyOf(from)) ?? [];
      list.push(neighbour);
      adjacency!.set(keyOf(from), list);
    };
    for (const edge of crosswalk) {
      add(edge.source, { ref: edge.target, relationship: edge.relationship, inferred: edge.inferred });
      add(edge.target, {
        ref: edge.source,
        relationship: INVERSE[edge.relationship],
        inferred: edge.inferred,
      });
    }
  }
  return adjacency.get(keyOf(ref)) ?? [];
}

/** Neighbour requirement ids of one framework. */
export const neighbourIds = (ref: Ref, frameworkId: string) => [
  ...new Set(
    neighbours(ref)
      .filter((n) => n.ref.frameworkId === frameworkId)
      .map((n) => n.ref.requirementId),
  ),
];

const hopFactor = (relationship: Relationship) =>
  relationship === 'equal' || relationship === 'superset' ? 1 : 0.5;

/**
 * What implemented direct records give every requirement, when nothing else is recorded (ISO 42001
 * controls other than the sources at their default, not started), worked out from the rule as written in
 * graph.ts rather than by its search:
 * - paths: from each source, at most 3 hops, never entering a requirement of the source's framework; full
 *   hops (equal, superset read from the start) keep the strength, partial ones halve it;
 * - joint: a requirement joined by an edge to a source framework has a mapped set of that framework's
 *   requirements (ISO/IEC 42001 and its clauses count as one framework; stated edges if it has any to that
 *   framework, else inferred ones); the set gives 1 when all its members are sources, 0.5 when some are,
 *   and half of that when it cannot cover: its edges are all intersect, or all inferred, or it is a single
 *   member whose edge says it is a subset;
 * - strength: the best of all; 1 → implemented, ≥ 0.25 → in progress, less → nothing.
 * Every path is enumerated (no pruning), so it shares nothing with the engine's search. Not covered:
 * sources in progress, exclusions, expired evidence.
 */
export function inferenceFrom(sources: readonly Ref[]): Map<string, number> {
  const result = new Map<string, number>();
  const raise = (ref: Ref, strength: number) => {
    if (strength > (result.get(keyOf(ref)) ?? 0)) result.set(keyOf(ref), strength);
  };
  const walk = (own: string, at: Ref, strength: number, hops: number) => {
    if (hops === 3) return;
    for (const next of neighbours(at)) {
      if (next.ref.frameworkId === own) continue;
      const reached = strength * hopFactor(next.relationship);
      if (reached >= 0.25) raise(next.ref, reached);
      walk(own, next.ref, reached, hops + 1);
    }
  };
  for (const source of sources) walk(source.frameworkId, source, 1, 0);
  const familyOf = (frameworkId: string) =>
    frameworkId === 'iso-42001' || frameworkId === 'iso-42001-clauses'
      ? ['iso-42001', 'iso-42001-clauses']
      : [frameworkId];
  const families = new Map(
    sources.map((source) => [familyOf(source.frameworkId).join(), familyOf(source.frameworkId)]),
  );
  for (const family of families.values()) {
    const implemented = new Set(sources.filter((source) => family.includes(source.frameworkId)).map(keyOf));
    const targets = new Map<string, Ref>();
    for (const source of sources.filter((candidate) => family.includes(candidate.frameworkId))) {
      for (const n of neighbours(source)) {
        if (!family.includes(n.ref.frameworkId)) targets.set(keyOf(n.ref), n.ref);
      }
    }
    for (const target of targets.values()) {
      const toFamily = neighbours(target).filter((n) => family.includes(n.ref.frameworkId));
      const stated = toFamily.filter((n) => !n.inferred);
      const chosen = stated.length > 0 ? stated : toFamily;
      const members = [...new Set(chosen.map((n) => keyOf(n.ref)))];
      const done = members.filter((key) => implemented.has(key));
      if (done.length === 0) continue;
      // Read from the member to the target (the neighbour list reads from the target).
      const narrower = members.length === 1 && chosen.every((n) => INVERSE[n.relationship] === 'subset');
      const onlyIntersect = chosen.every((n) => n.relationship === 'intersect');
      const canCover = stated.length > 0 && !onlyIntersect && !narrower;
      const whole = done.length < members.length ? 0.5 : 1;
      raise(target, canCover ? whole : whole / 2);
    }
  }
  return result;
}

export const singleSourceStrengths = (source: Ref) => inferenceFrom([source]);

export const strengthOf = (strengths: Map<string, number>, frameworkId: string, requirementId: string) =>
  strengths.get(keyOf({ frameworkId, requirementId })) ?? 0;

export const statusOfStrength = (strength: number): Status =>
  strength >= 1 ? 'implemented' : strength >= 0.25 ? 'in_progress' : 'not_started';

export const enc = encodeURIComponent;

export function expectStatus(res: LightMyRequestResponse, statusCode: number) {
  expect(res.statusCode, `${res.statusCode} ${res.body.slice(0, 500)}`).toBe(statusCode);
  return res;
}

/** The routes of one org, as the platform key (or another key) calls them. */
export function orgApi(t: TestApp, orgId: string) {
  const base = `/api/v1/orgs/${enc(orgId)}`;
  const requirement = (frameworkId: string, requirementId: string) =>
    `${base}/frameworks/${enc(frameworkId)}/requirements/${enc(requirementId)}`;
  const call = (
    method: 'GET' | 'PUT' | 'POST' | 'DELETE',
    url: string,
    body?: unknown,
    key?: string | null,
  ) => t.request({ method, url, body, ...(key === undefined ? {} : { key }) });
  return {
    base,
    requirement,
    call,
    async get(frameworkId: string, requirementId: string): Promise<Entry> {
      return expectStatus(await call('GET', requirement(frameworkId, requirementId)), 200).json();
    },
    async list(frameworkId: string, query = ''): Promise<Entry[]> {
      const res = await call('GET', `${base}/frameworks/${enc(frameworkId)}/requirements${query}`);
      return expectStatus(res, 200).json().requirements;
    },
    async status(
      frameworkId: string,
      requirementId: string,
      status: Status,
      extra: { reviewer?: string; owner?: string; note?: string } = {},
    ): Promise<Entry> {
      const body = { status, reviewer: extra.reviewer ?? 'rita', ...extra };
      const res = await call('PUT', `${requirement(frameworkId, requirementId)}/status`, body);
      return expectStatus(res, 200).json();
    },
    async applicability(
      frameworkId: string,
      requirementId: string,
      applicable: boolean,
      justification = 'decided by the review board',
      reviewer = 'rita',
    ): Promise<Entry> {
      const res = await call('PUT', `${requirement(frameworkId, requirementId)}/applicability`, {
        applicable,
        justification,
        reviewer,
      });
      return expectStatus(res, 200).json();
    },
    async withdraw(frameworkId: string, requirementId: string): Promise<Entry> {
      const res = await call('DELETE', `${requirement(frameworkId, requirementId)}/assessment`);
      return expectStatus(res, 200).json();
    },
    async control(controlId: string, status: Status, reviewer = 'carl') {
      const res = await call('PUT', `${base}/controls/${enc(controlId)}/status`, { status, reviewer });
      return expectStatus(res, 200).json();
    },
    async compliance(frameworkId: string) {
      return expectStatus(await call('GET', `${base}/frameworks/${enc(frameworkId)}/compliance`), 200).json();
    },
    async gaps(frameworkId: string): Promise<
      {
        controlId: string;
        priority: string;
        assessment: Assessment;
        status: string;
        recommendation: string;
      }[]
    > {
      const res = await call(
        'GET',
        `/api/v1/cte/gaps/${enc(frameworkId)}?orgId=${enc(orgId)}&include=assessment`,
      );
      return expectStatus(res, 200).json().gaps;
    },
  };
}

export type OrgApi = ReturnType<typeof orgApi>;
