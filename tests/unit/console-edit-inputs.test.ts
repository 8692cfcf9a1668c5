import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/errors';
import { Metadata } from '@/lib/http/schemas';
import { metadataLines, parseMetadataLines } from '@/lib/server/web/form-metadata';
import { safeWalletReturnPath } from '@/lib/auth/return-path';

const fieldError = (work: () => unknown) => {
  try {
    work();
  } catch (error) {
    if (error instanceof ApiError) return error.options.errors?.[0];
    throw error;
  }
  throw new Error('expected a field error');
};

describe('metadata typed as key=value lines', () => {
  it('reads one pair per line, trims, ignores blank lines and keeps = inside values', () => {
    expect(parseMetadataLines('plan = gold\n\n  ref=a=b \r\nempty=')).toEqual({ plan: 'gold', ref: 'a=b', empty: '' });
    expect(parseMetadataLines('')).toEqual({});
    expect(metadataLines({ plan: 'gold', ref: 'a=b' })).toBe('plan=gold\nref=a=b');
    expect(parseMetadataLines(metadataLines({ plan: 'gold', ref: 'a=b' }))).toEqual({ plan: 'gold', ref: 'a=b' });
  });

  it('names the line of a pair without a key or an equals sign, and of a repeated key', () => {
    expect(fieldError(() => parseMetadataLines('plan=gold\njust text'))).toEqual({ path: 'metadata', message: 'Line 2: write key=value.' });
    expect(fieldError(() => parseMetadataLines('=value'))).toEqual({ path: 'metadata', message: 'Line 1: write key=value.' });
    expect(fieldError(() => parseMetadataLines('a=1\na=2'))?.message).toBe('Line 2: the key “a” appears twice.');
  });

  it('leaves the limits to the API schema', () => {
    const many = Array.from({ length: 51 }, (_, i) => `k${i}=v`).join('\n');
    expect(Metadata.safeParse(parseMetadataLines(many)).success).toBe(false);
    expect(Metadata.safeParse(parseMetadataLines(`${'k'.repeat(41)}=v`)).success).toBe(false);
  });
});

describe('wallet sign-in return path', () => {
  it('allows only a hosted checkout of this site', () => {
    expect(safeWalletReturnPath('/member/pay/Ab_9-x')).toBe('/member/pay/Ab_9-x');
    for (const hostile of [
      'https://evil.example/member/pay/abc',
      '//evil.example/member/pay/abc',
      '/\\evil.example',
      '/member/pay/abc/../../admin',
      '/member/pay/abc?x=1',
      '/member/pay/%2F%2Fevil',
      '/member',
      '/merchant',
      ' /member/pay/abc',
      '/member/pay/',
      ['/member/pay/abc'],
      undefined,
    ]) {
      expect(safeWalletReturnPath(hostile), String(hostile)).toBeUndefined();
    }
  });
});
