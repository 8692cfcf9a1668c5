import { describe, expectTypeOf, test } from 'vitest';
import { isPaybaseError, type PaybaseError } from '@/packages/sdk/src/index';

/**
 * Type tests: a PaybaseError's `extra` is typed by its `code` from the OpenAPI document's
 * `x-problem-extras`. Each `@ts-expect-error` line must fail to compile.
 */

declare const caught: unknown;

describe('PaybaseError extras', () => {
  test('checking the code narrows extra to that code’s members', () => {
    if (!isPaybaseError(caught)) return;
    if (caught.code === 'PAYMENT_DECLINED') {
      expectTypeOf(caught.extra.declineCode).toEqualTypeOf<string | null>();
      expectTypeOf(caught.extra.declineMessage).toEqualTypeOf<string | undefined>();
      expectTypeOf(caught.extra.payment?.amount).toEqualTypeOf<number | undefined>();
      // @ts-expect-error INVALID_STATE's member is not PAYMENT_DECLINED's
      caught.extra.state;
    }
    if (caught.code === 'INVALID_STATE') expectTypeOf(caught.extra.state).toEqualTypeOf<string | undefined>();
    if (caught.code === 'VERSION_CONFLICT') expectTypeOf(caught.extra.currentVersion).toEqualTypeOf<string>();
    if (caught.code === 'VALIDATION_FAILED') expectTypeOf(caught.extra.knownVersions).toEqualTypeOf<string[] | undefined>();
  });

  test('isPaybaseError with a code narrows at once; a code without members has none', () => {
    if (isPaybaseError(caught, 'INSUFFICIENT_SCOPE')) expectTypeOf(caught.extra.requiredScope).toEqualTypeOf<string | undefined>();
    if (isPaybaseError(caught, 'NOT_FOUND')) {
      expectTypeOf(caught).toEqualTypeOf<PaybaseError<'NOT_FOUND'>>();
      // @ts-expect-error NOT_FOUND adds no members
      caught.extra.declineCode;
    }
  });
});
