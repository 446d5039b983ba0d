/**
 * Concurrent requests share the library-revision query, but never one sent before they arrived: a request
 * that comes while a query is on the wire waits for the next one, so an import or an analyst edge committed
 * just before it is always seen. Requests to another database never share it.
 */
import { describe, expect, it } from 'vitest';
import { revisionNow } from '../../src/features/cte/library.service.js';
import type { Em } from '../../src/platform/db/database.js';

/** The ORM's extension registry, as MikroORM's configuration keeps it: one per database. */
function fakeConfig() {
  const extensions = new Map<string, unknown>();
  return {
    registerExtension: (name: string, create: () => unknown) => extensions.set(name, create()),
    getExtension: (name: string) => extensions.get(name),
  };
}

/** An entity manager of its own database unless it is given another's configuration. */
function fakeEm(inTransaction = false, config = fakeConfig()) {
  const sent: ((rows: { revision: string }[]) => void)[] = [];
  const em = {
    config,
    isInTransaction: () => inTransaction,
    execute: () => new Promise((resolve) => sent.push(resolve)),
  } as unknown as Em;
  return { em, sent };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the library revision', () => {
  it('is read by a query sent after each caller arrived, shared by those who arrived meanwhile', async () => {
    const { em, sent } = fakeEm();
    const first = revisionNow(em);
    expect(sent).toHaveLength(1);
    // Both arrive while the first query is on the wire: it may have read before them.
    const second = revisionNow(em);
    const third = revisionNow(em);
    expect(sent).toHaveLength(1);
    sent[0]([{ revision: 'before' }]);
    expect(await first).toBe('before');
    await settle();
    expect(sent).toHaveLength(2);
    // One arriving after the second query went out waits for a third.
    const fourth = revisionNow(em);
    sent[1]([{ revision: 'after' }]);
    expect(await second).toBe('after');
    expect(await third).toBe('after');
    await settle();
    expect(sent).toHaveLength(3);
    sent[2]([{ revision: 'latest' }]);
    expect(await fourth).toBe('latest');
    // Nothing on the wire: the next caller sends its own at once.
    const fifth = revisionNow(em);
    expect(sent).toHaveLength(4);
    sent[3]([{ revision: 'latest' }]);
    expect(await fifth).toBe('latest');
  });

  it('is read in the caller’s own transaction when there is one', async () => {
    const outside = fakeEm();
    const pending = revisionNow(outside.em);
    const inside = fakeEm(true, outside.em.config as unknown as ReturnType<typeof fakeConfig>);
    const own = revisionNow(inside.em);
    expect(inside.sent).toHaveLength(1);
    inside.sent[0]([{ revision: 'uncommitted' }]);
    expect(await own).toBe('uncommitted');
    outside.sent[0]([{ revision: 'committed' }]);
    expect(await pending).toBe('committed');
  });

  it('is asked of each database apart: one never answers for another', async () => {
    const first = fakeEm();
    const second = fakeEm();
    const fromFirst = revisionNow(first.em);
    const fromSecond = revisionNow(second.em);
    expect(first.sent).toHaveLength(1);
    expect(second.sent).toHaveLength(1);
    const againFromFirst = revisionNow(first.em);
    first.sent[0]([{ revision: 'first' }]);
    second.sent[0]([{ revision: 'second' }]);
    expect(await fromFirst).toBe('first');
    expect(await fromSecond).toBe('second');
    await settle();
    first.sent[1]([{ revision: 'first, later' }]);
    expect(await againFromFirst).toBe('first, later');
    expect(second.sent).toHaveLength(1);
  });
});
