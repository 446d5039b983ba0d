export type Outcome<R> = { ok: true; value: R } | { ok: false; error: unknown };

export interface BatcherOptions<T> {
  /** Most items per batch. */
  maxItems: number;
  /** Most total weight per batch (e.g. rows a batch writes), whatever the item count. */
  maxWeight: number;
  weight(item: T): number;
  /** Batches processed at once; later items wait and coalesce into the next batch. */
  maxInFlight: number;
}

interface Pending<T, R> {
  item: T;
  resolve(value: R): void;
  reject(error: unknown): void;
}

/**
 * Coalesces concurrent calls into batches: items added in the same tick, or while every slot is busy,
 * are handed to `process` together. A batch starts when it is full or on the next tick. `process`
 * settles each item on its own, so one failing item never fails its neighbours.
 */
export class Batcher<T, R> {
  private queue: Pending<T, R>[] = [];
  private queuedWeight = 0;
  private inFlight = 0;
  private scheduled = false;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly process: (items: T[]) => Promise<Outcome<R>[]>,
    private readonly options: BatcherOptions<T>,
  ) {}

  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.queuedWeight += this.options.weight(item);
      if (this.queue.length >= this.options.maxItems || this.queuedWeight >= this.options.maxWeight) {
        this.drain();
      } else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.drain();
        });
      }
    });
  }

  /** Resolves once everything added so far has been processed. */
  async idle(): Promise<void> {
    if (this.queue.length === 0 && this.inFlight === 0) return;
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  private drain(): void {
    while (this.inFlight < this.options.maxInFlight && this.queue.length > 0) {
      this.run(this.take());
    }
    if (this.queue.length === 0 && this.inFlight === 0) {
      for (const wake of this.idleWaiters.splice(0)) wake();
    }
  }

  private take(): Pending<T, R>[] {
    let weight = 0;
    let count = 0;
    // Always at least one item, even one heavier than the limit.
    while (count < this.queue.length && count < this.options.maxItems) {
      const next = this.options.weight(this.queue[count].item);
      if (count > 0 && weight + next > this.options.maxWeight) break;
      weight += next;
      count += 1;
    }
    this.queuedWeight -= weight;
    return this.queue.splice(0, count);
  }

  private run(batch: Pending<T, R>[]): void {
    this.inFlight += 1;
    this.process(batch.map((pending) => pending.item))
      .then(
        (outcomes) =>
          batch.forEach((pending, index) => {
            const outcome = outcomes[index];
            if (outcome.ok) pending.resolve(outcome.value);
            else pending.reject(outcome.error);
          }),
        (error: unknown) => {
          for (const pending of batch) pending.reject(error);
        },
      )
      .finally(() => {
        this.inFlight -= 1;
        this.drain();
      });
  }
}
