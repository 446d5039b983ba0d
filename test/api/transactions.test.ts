import { IsolationLevel } from '@mikro-orm/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retryingTransaction } from '../../src/platform/db/retry.js';
import { isSerializationFailure } from '../../src/platform/db/transient.js';
import { failedDependency } from '../../src/platform/unavailable.js';
import { dbKinds, openTestDatabase, type TestDatabase } from '../support/app.js';

// Only PostgreSQL runs transactions side by side (PGlite has one connection).
describe.runIf(dbKinds.includes('postgres'))('a transaction that loses a serialization conflict', () => {
  let test: TestDatabase;

  beforeAll(async () => {
    test = await openTestDatabase('postgres');
    await test.db.em().execute('create table conflict_probe (id int primary key, n int not null)');
    await test.db.em().execute('insert into conflict_probe values (1, 0)');
  });
  afterAll(async () => {
    await test?.close();
  });

  /**
   * A repeatable-read transaction that reads the row, lets a concurrent statement update and commit it, then
   * updates it itself: PostgreSQL refuses that update with a serialization failure (40001) on the first run.
   */
  async function conflicting(attempts: number) {
    let runs = 0;
    let read!: () => void;
    let committed!: () => void;
    const hasRead = new Promise<void>((resolve) => {
      read = resolve;
    });
    const winnerCommitted = new Promise<void>((resolve) => {
      committed = resolve;
    });
    const loser = retryingTransaction(
      test.db.em(),
      async (tx) => {
        runs += 1;
        await tx.execute('select n from conflict_probe where id = 1');
        if (runs === 1) {
          read();
          await winnerCommitted;
        }
        await tx.execute('update conflict_probe set n = n + 1 where id = 1');
      },
      { isolationLevel: IsolationLevel.REPEATABLE_READ, attempts },
    );
    await hasRead;
    await test.db.em().execute('update conflict_probe set n = n + 1 where id = 1');
    committed();
    return {
      outcome: await loser.then(
        () => null,
        (error: unknown) => error,
      ),
      runs: () => runs,
    };
  }

  it('is run again and then succeeds', async () => {
    const [before] = await test.db.em().execute<{ n: number }[]>('select n from conflict_probe where id = 1');
    const { outcome, runs } = await conflicting(5);
    expect(outcome).toBeNull();
    expect(runs()).toBe(2);
    const [after] = await test.db.em().execute<{ n: number }[]>('select n from conflict_probe where id = 1');
    expect(after.n).toBe(before.n + 2);
  });

  it('is a conflict, not a database outage, once its attempts are spent', async () => {
    const { outcome, runs } = await conflicting(1);
    expect(runs()).toBe(1);
    expect(isSerializationFailure(outcome)).toBe(true);
    expect(failedDependency(outcome)).toBeNull();
  });
});
