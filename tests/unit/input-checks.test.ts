import { describe, expect, it } from 'vitest';
import { findUnstorableText, MAX_JSON_DEPTH, nestsDeeperThan, refuseUnstorableText } from '@/lib/http/input-checks';
import { readJsonBody } from '@/lib/http/request';

describe('nestsDeeperThan', () => {
  it('counts objects and arrays, not brackets inside strings or escaped quotes', () => {
    expect(nestsDeeperThan('{"a":[1,{"b":[]}]}', 4)).toBe(false);
    expect(nestsDeeperThan('{"a":[1,{"b":[]}]}', 3)).toBe(true);
    expect(nestsDeeperThan('{"a":"[[[[[[{{{{"}', 1)).toBe(false);
    expect(nestsDeeperThan('{"a":"\\"[[[[","b":1}', 1)).toBe(false);
    expect(nestsDeeperThan('[[],[],[]]', 2)).toBe(false);
  });

  it('stops at the first level past the limit of a body half a million levels deep', () => {
    expect(nestsDeeperThan('['.repeat(500_000), MAX_JSON_DEPTH)).toBe(true);
  });
});

describe('readJsonBody', () => {
  it(`refuses a body nested deeper than ${MAX_JSON_DEPTH} levels with 400 VALIDATION_FAILED, and parses one at the limit`, () => {
    const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
    expect(() => readJsonBody(nested(10_000))).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED' }));
    expect(() => readJsonBody(nested(MAX_JSON_DEPTH + 1))).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED' }));
    expect(readJsonBody(nested(MAX_JSON_DEPTH))).toBeInstanceOf(Array);
    expect(readJsonBody('')).toEqual({});
  });
});

describe('findUnstorableText', () => {
  it('finds NUL and lone surrogates in values and keys, with the path to them', () => {
    expect(findUnstorableText({ a: 'ok', b: { c: ['x', 'y\u0000'] } })).toEqual({ path: ['b', 'c', '1'], kind: 'nul' });
    expect(findUnstorableText({ a: { b: '\ud800' } })).toEqual({ path: ['a', 'b'], kind: 'lone-surrogate' });
    expect(findUnstorableText({ a: '\udc00x' })).toEqual({ path: ['a'], kind: 'lone-surrogate' });
    expect(findUnstorableText({ a: { 'k\ud800': 1 } })).toEqual({ path: ['a', 'k\\ud800'], kind: 'lone-surrogate' });
    expect(findUnstorableText({ 'k\u0000': 1 })).toEqual({ path: ['k\\u0000'], kind: 'nul' });
    expect(findUnstorableText('\ud800')).toEqual({ path: [], kind: 'lone-surrogate' });
  });

  it('reports the first in document order and accepts whole surrogate pairs', () => {
    expect(findUnstorableText({ a: ['\u0000'], b: '\ud800' })?.path).toEqual(['a', '0']);
    expect(findUnstorableText({ emoji: '😀 \ud83d\ude00', [String.fromCodePoint(0x1f600)]: 'x', n: 1, t: true, z: null })).toBeUndefined();
  });

  it('walks a value nested 100,000 levels without running out of stack', () => {
    let deep: unknown = 'x\ud800';
    for (let level = 0; level < 100_000; level++) deep = [deep];
    expect(findUnstorableText(deep)?.path).toHaveLength(100_000);
  });
});

describe('refuseUnstorableText', () => {
  it('throws a 400 naming the field, or the location for a bare value', () => {
    expect(() => refuseUnstorableText({ metadata: { note: 'a\ud800' } }, 'body')).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED', options: { errors: [{ path: 'metadata.note', message: expect.stringContaining('surrogate') }] } }),
    );
    expect(() => refuseUnstorableText({ customerId: '\u0000' }, 'path')).toThrow(
      expect.objectContaining({ options: { errors: [{ path: 'customerId', message: expect.stringContaining('NUL') }] } }),
    );
    expect(() => refuseUnstorableText({ fine: 'yes' }, 'query')).not.toThrow();
  });
});
