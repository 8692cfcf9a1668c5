import { describe, expect, it } from 'vitest';
import { storableText } from '@/lib/stored-text';
import { writeIsolating } from '@/lib/db/isolating-writes';

describe('storableText', () => {
  it('replaces NUL characters and lone surrogates with U+FFFD and keeps everything else', () => {
    expect(storableText('ok\0')).toBe('ok\uFFFD');
    expect(storableText('a\uD800b')).toBe('a\uFFFDb');
    expect(storableText('a\uDC00b')).toBe('a\uFFFDb');
    expect(storableText('\uDC00\uD800')).toBe('\uFFFD\uFFFD');
    expect(storableText('pair 😀 kept, é too')).toBe('pair 😀 kept, é too');
    expect(storableText(null)).toBeNull();
    expect(storableText(undefined)).toBeNull();
  });

  it('cuts over-long text without splitting a surrogate pair', () => {
    expect(storableText('abcdef', 3)).toBe('abc');
    expect(storableText('ab😀', 3)).toBe('ab');
    expect(storableText('ab😀', 4)).toBe('ab😀');
    expect(storableText('\0\0\0\0', 2)).toBe('\uFFFD\uFFFD');
  });

  it('makes text PostgreSQL-safe as JSON too', () => {
    const json = JSON.stringify({ body: storableText('x\0\uD800y') });
    expect(json).not.toMatch(/\\u0000|\\ud800/i);
  });
});

/** A batch writer over an in-memory "table" that refuses rows as PostgreSQL refused a NUL byte. */
function table(refuses: (row: string) => boolean, unavailable = () => false) {
  const written: string[] = [];
  let statements = 0;
  const write = async (rows: string[]) => {
    statements++;
    if (unavailable()) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    if (rows.some(refuses)) throw Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: '22021' });
    written.push(...rows);
  };
  return { written, write, statements: () => statements };
}

describe('writeIsolating', () => {
  it('writes every row but the refused one, which is handed over alone, in a few statements', async () => {
    const rows = Array.from({ length: 500 }, (_, i) => `row ${i}`);
    const { written, write, statements } = table((row) => row === 'row 321');
    const refused: string[] = [];
    const unwritten = await writeIsolating(rows, write, async (row) => void refused.push(row));
    expect(unwritten).toEqual([]);
    expect(refused).toEqual(['row 321']);
    expect(written.sort()).toEqual(rows.filter((row) => row !== 'row 321').sort());
    // Each halving costs two statements: about 2 × log2(500), not one per row.
    expect(statements()).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(500)) + 1);
  });

  it('returns what is not written when the database cannot be reached, without halving', async () => {
    let down = false;
    const { written, write, statements } = table(
      (row) => row === 'b',
      () => down,
    );
    const unwritten = await writeIsolating(['a', 'b', 'c', 'd'], write, async () => {
      down = true;
    });
    // 'b' was refused alone; the database then went away before 'c' and 'd'.
    expect(written).toEqual(['a']);
    expect(unwritten).toEqual(['c', 'd']);
    expect(statements()).toBeGreaterThan(0);
  });
});
