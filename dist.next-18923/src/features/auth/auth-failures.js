import { TtlCache } from '../../platform/cache/ttl-cache.js';
import { AppError } from '../../platform/errors.js';
/** Addresses whose refusals are counted at once; past it the least recently refused address is forgotten. */
const ADDRESS_CAPACITY = 10_000;
/**
 * Counts refused authentications per client address in fixed windows. Past `max` refusals in a window, the
 * address gets `429` for what is left of it, before any key is looked up: unknown secrets then cost the
 * database at most `max` lookups per address and window.
 *
 * The counters live in the process, not in Redis, even when the per-key rate limit is shared: they bound
 * the lookups each daemon makes (its own database load), a shared counter would put a Redis round trip on
 * the very path a flood takes, and with 256-bit secrets the guesses let through per daemon are harmless.
 */
export class AuthFailureLimiter {
    max;
    windowMs;
    windows;
    constructor(max, windowMs, capacity = ADDRESS_CAPACITY) {
        this.max = max;
        this.windowMs = windowMs;
        this.windows = new TtlCache(windowMs, capacity);
    }
    /** The 429 for an address past its limit, or undefined while it may still try. */
    refusal(address, now = Date.now()) {
        const window = this.windows.get(address);
        if (!window || window.endsAt <= now || window.refusals < this.max)
            return undefined;
        const retryAfterSeconds = Math.max(1, Math.ceil((window.endsAt - now) / 1000));
        return new AppError('RATE_LIMITED', `Too many refused authentications from this address (limit ${this.max} per ${this.windowMs / 1000} s)`, { limit: this.max, retryAfterSeconds }, { 'retry-after': String(retryAfterSeconds) });
    }
    /** Counts one refused authentication of the address. */
    record(address, now = Date.now()) {
        const window = this.windows.get(address);
        // The window is fixed from its first refusal; the entry is updated in place so its expiry does not move.
        if (window && window.endsAt > now)
            window.refusals += 1;
        else
            this.windows.set(address, { refusals: 1, endsAt: now + this.windowMs });
    }
}
//# sourceMappingURL=auth-failures.js.map