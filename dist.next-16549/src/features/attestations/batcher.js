/**
 * Coalesces concurrent calls into batches: items added in the same tick, or while every slot is busy,
 * are handed to `process` together. A batch starts when it is full or on the next tick. `process`
 * settles each item on its own, so one failing item never fails its neighbours.
 */
export class Batcher {
    process;
    options;
    queue = [];
    queuedWeight = 0;
    inFlight = 0;
    scheduled = false;
    idleWaiters = [];
    constructor(process, options) {
        this.process = process;
        this.options = options;
    }
    add(item) {
        return new Promise((resolve, reject) => {
            this.queue.push({ item, resolve, reject });
            this.queuedWeight += this.options.weight(item);
            if (this.queue.length >= this.options.maxItems || this.queuedWeight >= this.options.maxWeight) {
                this.drain();
            }
            else if (!this.scheduled) {
                this.scheduled = true;
                setImmediate(() => {
                    this.scheduled = false;
                    this.drain();
                });
            }
        });
    }
    /** Resolves once everything added so far has been processed. */
    async idle() {
        if (this.queue.length === 0 && this.inFlight === 0)
            return;
        await new Promise((resolve) => this.idleWaiters.push(resolve));
    }
    drain() {
        while (this.inFlight < this.options.maxInFlight && this.queue.length > 0) {
            this.run(this.take());
        }
        if (this.queue.length === 0 && this.inFlight === 0) {
            for (const wake of this.idleWaiters.splice(0))
                wake();
        }
    }
    take() {
        let weight = 0;
        let count = 0;
        // Always at least one item, even one heavier than the limit.
        while (count < this.queue.length && count < this.options.maxItems) {
            const next = this.options.weight(this.queue[count].item);
            if (count > 0 && weight + next > this.options.maxWeight)
                break;
            weight += next;
            count += 1;
        }
        this.queuedWeight -= weight;
        return this.queue.splice(0, count);
    }
    run(batch) {
        this.inFlight += 1;
        this.process(batch.map((pending) => pending.item))
            .then((outcomes) => batch.forEach((pending, index) => {
            const outcome = outcomes[index];
            if (outcome.ok)
                pending.resolve(outcome.value);
            else
                pending.reject(outcome.error);
        }), (error) => {
            for (const pending of batch)
                pending.reject(error);
        })
            .finally(() => {
            this.inFlight -= 1;
            this.drain();
        });
    }
}
//# sourceMappingURL=batcher.js.map