import type { OscalDocuments, OscalPackage } from './oscal.types.js';

/** A reference the JSON schema cannot check, that points at nothing. */
export interface OscalReferenceProblem {
  document: string;
  /** JSON pointer to the referring member. */
  path: string;
  reference: string;
  message: string;
}

export type OscalFileName = keyof OscalDocuments;

/** Each document sees its own definitions and those of the documents it imports, transitively. */
const IMPORT_CHAINS: Record<OscalFileName, OscalFileName[]> = {
  'catalog.json': ['catalog.json'],
  'profile.json': ['profile.json', 'catalog.json'],
  'ssp.json': ['ssp.json', 'profile.json', 'catalog.json'],
  'assessment-plan.json': ['assessment-plan.json', 'ssp.json', 'profile.json', 'catalog.json'],
  'assessment-results.json': [
    'assessment-results.json',
    'assessment-plan.json',
    'ssp.json',
    'profile.json',
    'catalog.json',
  ],
};

/** The documents in import order: each one's imports come before it. */
export const OSCAL_FILE_ORDER = Object.keys(IMPORT_CHAINS) as OscalFileName[];

/** The array that must define the UUID a member refers to. */
const UUID_TARGETS: Record<string, string[]> = {
  'component-uuid': ['components'],
  'implementation-statement-uuid': ['implemented-requirements', 'by-components'],
  'observation-uuid': ['observations'],
  'risk-uuid': ['risks'],
  'implementation-uuid': ['implemented-requirements'],
  'party-uuids': ['parties'],
  'member-of-organizations': ['parties'],
};

/** For `subject-uuid` and `actor-uuid`, the target array depends on the sibling `type`. */
const TYPED_TARGETS: Record<string, string[]> = {
  component: ['components'],
  'inventory-item': ['inventory-items'],
  location: ['locations'],
  party: ['parties'],
  user: ['users'],
  resource: ['resources'],
  tool: ['components'],
  'assessment-platform': ['assessment-platforms'],
};

const ABSOLUTE_URI = /^[a-zA-Z][a-zA-Z0-9+.-]*:/;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };
export type JsonPath = (string | number)[];

interface DocumentIndex {
  /** uuid → the name of the array that defines it (`components`, `parties`, `resources`, ...). */
  uuids: Map<string, string>;
  roleIds: Set<string>;
  controlIds: Set<string>;
  partIds: Set<string>;
}

/** A reference that did not resolve when it was met: it may point further down, or to a later document. */
interface Pending {
  document: OscalFileName;
  path: string;
  reference: string;
  resolves: () => boolean;
  message: string;
}

const pointer = (path: JsonPath, key: string, item?: number) =>
  `/${[...path, key].join('/')}${item === undefined ? '' : `/${item}`}`;

function definedIn(scope: DocumentIndex[], uuid: string, targets: string[]): boolean {
  for (const index of scope) {
    const array = index.uuids.get(uuid);
    if (array !== undefined && targets.includes(array)) return true;
  }
  return false;
}

const emptyIndex = (): DocumentIndex => ({
  uuids: new Map(),
  roleIds: new Set(),
  controlIds: new Set(),
  partIds: new Set(),
});

/**
 * Checks every reference of a package that the JSON schemas leave unchecked, in one walk over each
 * document: component, party, observation, risk and implementation-statement UUIDs; `#uuid` and `file#uuid`
 * links to back-matter resources; relative links to the package's files; role ids; control and
 * statement ids against the catalog. UUIDs defined twice in one document are reported too.
 *
 * Documents are fed in import order, whole or a piece at a time (`check(item, path, arrayKey)` for one
 * element of a large array), so a document never has to exist as one object. Definitions are indexed
 * and references resolved during the same walk; a reference that does not resolve yet is kept and
 * decided by `finish()`, once every definition is known.
 */
export class OscalReferenceChecker {
  readonly problems: OscalReferenceProblem[] = [];
  private readonly indexes = new Map<OscalFileName, DocumentIndex>();
  private readonly pending: Pending[] = [];
  private document: OscalFileName = 'catalog.json';
  private index: DocumentIndex = emptyIndex();
  private scope: DocumentIndex[] = [];
  private path: JsonPath = [];

  /** Starts (or resumes) a document: what follows is checked as part of it. */
  startDocument(document: OscalFileName): void {
    this.document = document;
    this.index = this.indexOf(document);
    this.scope = IMPORT_CHAINS[document].map((file) => this.indexOf(file));
  }

  /** Walks `node`, which sits at `path` in the current document, inside the array named `arrayKey`. */
  check(node: unknown, path: JsonPath = [], arrayKey: string | null = null): void {
    this.path = [...path];
    this.walk(node as Json, arrayKey);
  }

  /** Decides the references that were waiting for later definitions; returns every problem found. */
  finish(): OscalReferenceProblem[] {
    for (const pending of this.pending.splice(0)) {
      if (!pending.resolves()) {
        const { document, path, reference, message } = pending;
        this.problems.push({ document, path, reference, message });
      }
    }
    return this.problems;
  }

  /** One loop over each object's members finds its definitions and its references alike. */
  private walk(node: Json, arrayKey: string | null): void {
    if (typeof node !== 'object' || node === null) return;
    const { path } = this;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const child = node[i];
        if (typeof child !== 'object' || child === null) continue;
        path.push(i);
        this.walk(child, arrayKey);
        path.pop();
      }
      return;
    }
    for (const key in node) {
      const child = node[key];
      if (typeof child === 'string') {
        if (key === 'uuid') this.defineUuid(child, arrayKey);
        else if (key === 'id') this.defineId(child, arrayKey);
        else this.reference(node, key, child);
      } else if (typeof child === 'object' && child !== null) {
        if (Array.isArray(child) && (key === 'party-uuids' || key === 'member-of-organizations')) {
          for (let i = 0; i < child.length; i++) this.expectUuid(key, child[i], UUID_TARGETS[key], i);
        }
        path.push(key);
        this.walk(child, Array.isArray(child) ? key : null);
        path.pop();
      }
    }
  }

  private defineUuid(uuid: string, arrayKey: string | null): void {
    const { uuids } = this.index;
    if (!uuids.has(uuid)) {
      uuids.set(uuid, arrayKey ?? String(this.path[this.path.length - 1] ?? ''));
      return;
    }
    this.problems.push({
      document: this.document,
      path: `/${this.path.join('/')}`,
      reference: uuid,
      message: 'uuid defined twice',
    });
  }

  private defineId(id: string, arrayKey: string | null): void {
    if (arrayKey === 'roles') this.index.roleIds.add(id);
    else if (arrayKey === 'controls') this.index.controlIds.add(id);
    else if (arrayKey === 'parts') this.index.partIds.add(id);
  }

  private reference(object: JsonObject, key: string, value: string): void {
    switch (key) {
      case 'component-uuid':
      case 'implementation-statement-uuid':
      case 'observation-uuid':
      case 'risk-uuid':
      case 'implementation-uuid':
        this.expectUuid(key, value, UUID_TARGETS[key]);
        break;
      case 'subject-uuid':
      case 'actor-uuid': {
        const targets = TYPED_TARGETS[String(object.type)];
        if (targets) this.expectUuid(key, value, targets);
        break;
      }
      case 'role-id': {
        const scope = this.scope;
        this.expect(
          key,
          value,
          () => scope.some((index) => index.roleIds.has(value)),
          'no role with this id',
        );
        break;
      }
      case 'control-id': {
        const catalog = this.catalog();
        this.expect(
          key,
          value,
          () => catalog.controlIds.has(value),
          'no control with this id in the catalog',
        );
        break;
      }
      case 'target-id':
        if (object.type === 'statement-id' || object.type === 'objective-id') {
          const catalog = this.catalog();
          this.expect(
            key,
            value,
            () => catalog.partIds.has(value),
            'no statement with this id in the catalog',
          );
        }
        break;
      case 'href':
        this.checkHref(value);
        break;
    }
  }

  private catalog(): DocumentIndex {
    return this.indexOf('catalog.json');
  }

  /** Resolved now, or kept with its location until `finish()`, when every definition is known. */
  private expect(
    key: string,
    reference: string,
    resolves: () => boolean,
    message: string,
    item?: number,
  ): void {
    if (resolves()) return;
    this.pending.push({
      document: this.document,
      path: pointer(this.path, key, item),
      reference,
      resolves,
      message,
    });
  }

  private expectUuid(key: string, uuid: Json, targets: string[], item?: number): void {
    // Checked inline first: most references resolve, and a closure for each would cost more.
    if (typeof uuid !== 'string' || definedIn(this.scope, uuid, targets)) return;
    const scope = this.scope;
    const message = `no ${targets.join(' or ')} entry with this uuid`;
    this.expect(key, uuid, () => definedIn(scope, uuid, targets), message, item);
  }

  /** Absolute URLs point outside the package; relative ones name one of its files, `#uuid` a resource. */
  private checkHref(href: string): void {
    const hash = href.indexOf('#');
    if (hash !== 0 && ABSOLUTE_URI.test(href)) return;
    let target = this.index;
    if (hash !== 0) {
      const file = hash < 0 ? href : href.slice(0, hash);
      const name = file.startsWith('./') ? file.slice(2) : file;
      if (name !== '') {
        if (!Object.hasOwn(IMPORT_CHAINS, name)) {
          this.expect('href', href, () => false, 'no document with this name in the package');
          return;
        }
        target = this.indexOf(name as OscalFileName);
      }
      if (hash < 0) return;
    }
    const uuid = href.slice(hash + 1);
    if (target.uuids.get(uuid) === 'resources') return;
    this.expect(
      'href',
      href,
      () => target.uuids.get(uuid) === 'resources',
      'no back-matter resource with this uuid',
    );
  }

  private indexOf(file: OscalFileName): DocumentIndex {
    let index = this.indexes.get(file);
    if (!index) {
      index = emptyIndex();
      this.indexes.set(file, index);
    }
    return index;
  }
}

/** Every dangling reference of a package of objects (see OscalReferenceChecker). */
export function checkOscalReferences(pkg: OscalPackage): OscalReferenceProblem[] {
  const documents = pkg['oscal-package'].documents as unknown as Record<OscalFileName, Json | undefined>;
  const checker = new OscalReferenceChecker();
  for (const name of OSCAL_FILE_ORDER) {
    checker.startDocument(name);
    checker.check(documents[name]);
  }
  return checker.finish();
}
