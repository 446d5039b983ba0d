import { describe, expect, it } from 'vitest';
import { Batcher, type Outcome } from '../../src/features/attestations/batcher.js';

interface Recorder {
  batches: number[][];
  release: (() => void)[];
}

/** A processor that records each batch and holds it until released, so the test controls timing. */
function holdingProcessor(recorder: Recorder) {
  return (items: number[]) => {
    recorder.batches.push(items);
    return new Promise<Outcome<number>[]>((resolve) => {
      recorder.release.push(() =>
        resolve(
          items.map((item) =>
            item < 0 ? { ok: false, error: new Error(`bad ${item}`) } : { ok: true, value: item * 10 },
          ),
        ),
      );
    });
  };
}

const flushTicks = () => new Promise((resolve) => setImmediate(resolve));

describe('Batcher', () => {
  it('coalesces items added in one tick and while every slot is busy', async () => {
    const recorder: Recorder = { batches: [], release: [] };
    const batcher = new Batcher(holdingProcessor(recorder), {
      maxItems: 100,
      maxWeight: 1000,
      weight: () => 1,
      maxInFlight: 1,
    });
    const first = [1, 2, 3].map((item) => batcher.add(item));
    await flushTicks();
    expect(recorder.batches).toEqual([[1, 2, 3]]);
    const second = [4, 5].map((item) => batcher.add(item));
    await flushTicks();
    // The only slot is busy: 4 and 5 wait, together.
    expect(recorder.batches).toHaveLength(1);
    recorder.release[0]();
    expect(await Promise.all(first)).toEqual([10, 20, 30]);
    await flushTicks();
    expect(recorder.batches[1]).toEqual([4, 5]);
    recorder.release[1]();
    expect(await Promise.all(second)).toEqual([40, 50]);
    await batcher.idle();
  });

  it('splits by item count and by weight, and runs up to maxInFlight batches at once', async () => {
    const recorder: Recorder = { batches: [], release: [] };
    const batcher = new Batcher(holdingProcessor(recorder), {
      maxItems: 3,
      maxWeight: 10,
      weight: (item) => item,
      maxInFlight: 2,
    });
    const results = [1, 1, 1, 1, 6, 6, 2].map((item) => batcher.add(item));
    await flushTicks();
    expect(recorder.batches).toEqual([
      [1, 1, 1],
      [1, 6],
    ]);
    recorder.release[0]();
    await flushTicks();
    expect(recorder.batches[2]).toEqual([6, 2]);
    recorder.release[1]();
    recorder.release[2]();
    expect(await Promise.all(results)).toEqual([10, 10, 10, 10, 60, 60, 20]);
  });

  it('settles each item on its own, and rejects a whole batch only when processing throws', async () => {
    const recorder: Recorder = { batches: [], release: [] };
    const batcher = new Batcher(holdingProcessor(recorder), {
      maxItems: 10,
      maxWeight: 10,
      weight: () => 1,
      maxInFlight: 1,
    });
    const settled = Promise.allSettled([1, -1, 2].map((item) => batcher.add(item)));
    await flushTicks();
    recorder.release[0]();
    expect((await settled).map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);

    const failing = new Batcher<number, number>(() => Promise.reject(new Error('down')), {
      maxItems: 10,
      maxWeight: 10,
      weight: () => 1,
      maxInFlight: 1,
    });
    const all = await Promise.allSettled([failing.add(1), failing.add(2)]);
    expect(all.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    await failing.idle();
  });
});
