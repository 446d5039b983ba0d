import { afterEach, describe, expect, it, vi } from 'vitest';
import { LruCache } from '../../src/platform/cache/lru-cache.js';
import { TtlCache } from '../../src/platform/cache/ttl-cache.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('the time-bounded cache', () => {
  it('forgets a value once its time is up', () => {
    vi.useFakeTimers({ now: 0 });
    const cache = new TtlCache<string, string | null>(10_000, 10);
    cache.set('known', 'principal');
    cache.set('unknown', null);
    vi.setSystemTime(9_999);
    expect(cache.get('known')).toBe('principal');
    // A cached "nobody" is a value too, not a miss.
    expect(cache.get('unknown')).toBeNull();
    vi.setSystemTime(10_000);
    expect(cache.get('known')).toBeUndefined();
    expect(cache.size).toBe(1);
  });

  it('past its capacity drops the least recently used, not everything', () => {
    const cache = new TtlCache<string, number>(60_000, 3);
    cache.set('hot', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    cache.get('hot');
    cache.set('d', 4);
    expect([cache.get('hot'), cache.get('b'), cache.get('c'), cache.get('d')]).toEqual([1, undefined, 3, 4]);
  });

  it('drops a key only while it holds the given value, and every value that matches', () => {
    const cache = new TtlCache<string, { keyId: string }>(60_000, 10);
    const first = { keyId: 'k1' };
    cache.set('secret', first);
    cache.set('secret', { keyId: 'k1' });
    cache.deleteIf('secret', first);
    expect(cache.get('secret')).toEqual({ keyId: 'k1' });
    cache.set('other', { keyId: 'k2' });
    cache.deleteWhere((value) => value.keyId === 'k1');
    expect([cache.get('secret'), cache.get('other')]).toEqual([undefined, { keyId: 'k2' }]);
  });
});

describe('the least-recently-used cache', () => {
  it('bounds the total weight of its values, and peeking does not make a value younger', () => {
    const cache = new LruCache<string, string[]>(4, (items) => items.length);
    cache.set('old', ['a', 'b']);
    cache.set('new', ['c', 'd']);
    expect(cache.peek('old')).toEqual(['a', 'b']);
    cache.set('newest', ['e']);
    expect([...cache].map(([key]) => key)).toEqual(['new', 'newest']);
    cache.delete('new');
    cache.set('big', ['f', 'g', 'h']);
    expect([...cache].map(([key]) => key)).toEqual(['newest', 'big']);
  });
});
