import { describe, expect, it } from 'vitest';
import { canonicalJson } from '@/lib/canonical-json';

describe('canonical JSON (RFC 8785)', () => {
  it('sorts members by UTF-16 code units at every level, not by locale', () => {
    expect(canonicalJson({ b: 1, B: 2, a: [{ é: 1, e: 2, Z: 3 }], '€': 0, '😀': 0, '\u{ff61}': 0 })).toBe(
      '{"B":2,"a":[{"Z":3,"e":2,"é":1}],"b":1,"€":0,"😀":0,"｡":0}',
    );
  });

  it('writes numbers and strings as ECMAScript does, with no whitespace', () => {
    expect(canonicalJson({ n: [1e21, 0.000001, 1e-7, -0, 10.5], s: 'line\nbreak "quoted" \u2028' })).toBe(
      '{"n":[1e+21,0.000001,1e-7,0,10.5],"s":"line\\nbreak \\"quoted\\" \u2028"}',
    );
  });

  it('gives the same text for the same value whatever order its members came in', () => {
    expect(canonicalJson({ x: { q: 1, p: [3, { z: 1, y: 2 }] }, a: null })).toBe(canonicalJson({ a: null, x: { p: [3, { y: 2, z: 1 }], q: 1 } }));
  });
});
