import { describe, expectTypeOf, test } from 'vitest';
import { z } from 'zod';
import { apiRoute, phasedApiRoute } from '@/lib/server/http/api-route';
import type { HandlerResult } from '@/lib/http/handler-result';
import { pageOf } from '@/lib/http/list';
import { defineOperation } from '@/lib/http/operation';
import type { Problem } from '@/lib/http/problem';
import { respond, type ApiResponse } from '@/lib/http/respond';
import { Timestamp } from '@/lib/http/schemas';
import { defineSessionOperation } from '@/lib/http/session-operation';
import { sessionRoute } from '@/lib/server/http/session-route';
import type { getPriceOperation } from '@/lib/catalog/api';
import type { PriceResponse } from '@/lib/catalog/schemas';

/**
 * Type tests (vitest typecheck, vitest.config.ts project `types`): a route handler's result is
 * checked against its operation's response schema at compile time. Each `@ts-expect-error`
 * line must fail to compile; if the types ever let it through, the directive itself is the error.
 */

const Widget = z.object({ id: z.string(), amount: z.int(), createdAt: Timestamp, note: z.string().nullable() });
const widget = { id: 'wid_1', amount: 100, createdAt: '2026-01-01T00:00:00.000Z', note: null };

const createWidget = defineOperation({
  id: 'createWidget',
  method: 'POST',
  path: '/api/Widget',
  tag: 'Widgets',
  summary: 'Create a widget',
  scope: 'products:write',
  response: Widget,
  successStatus: 201,
  answers: {
    200: { description: 'An existing widget was replaced.', schema: Widget },
    202: { description: 'Accepted for later.', schema: z.object({ queued: z.literal(true) }) },
    402: 'PAYMENT_DECLINED: the card was declined.',
  },
});

const listWidgets = defineOperation({
  id: 'listWidgets',
  method: 'GET',
  path: '/api/Widget',
  tag: 'Widgets',
  summary: 'List widgets',
  scope: 'products:read',
  response: pageOf(Widget),
});

const page = { data: [widget], page: 1, pageSize: 20, totalCount: 1, hasMore: false };
const problem: Problem = { type: 'x', title: 'Payment declined', status: 402, detail: 'Declined.', code: 'PAYMENT_DECLINED', requestId: 'req_1' };

describe('developer API handlers', () => {
  test('return the response schema’s output on the success status', () => {
    apiRoute(createWidget, async () => widget);
    // @ts-expect-error a Date where the documented answer is an ISO string (JSON.stringify would send one, but the type is the contract)
    apiRoute(createWidget, async () => ({ ...widget, createdAt: new Date() }));
    // @ts-expect-error a documented member is missing
    apiRoute(createWidget, async () => ({ id: 'wid_1', amount: 100, createdAt: widget.createdAt }));
    // @ts-expect-error a member of the wrong type
    apiRoute(createWidget, async () => ({ ...widget, amount: '100' }));
    // @ts-expect-error undefined is not a body
    apiRoute(createWidget, async () => undefined);
  });

  test('answer other statuses only as documented, each with its own body', () => {
    apiRoute(createWidget, async () => respond(201, widget));
    apiRoute(createWidget, async () => respond(200, widget));
    apiRoute(createWidget, async () => respond(202, { queued: true as const }));
    apiRoute(createWidget, async () => respond(402, problem));
    apiRoute(createWidget, async ({ body }) => respond(body ? 201 : 200, widget));
    // @ts-expect-error 409 is not one of the operation's answers
    apiRoute(createWidget, async () => respond(409, widget));
    // @ts-expect-error 202 documents another body
    apiRoute(createWidget, async () => respond(202, widget));
    // @ts-expect-error a problem answer carries problem details
    apiRoute(createWidget, async () => respond(402, widget));
  });

  test('lists return a page of the item schema', () => {
    apiRoute(listWidgets, async () => page);
    // @ts-expect-error an item of the wrong shape
    apiRoute(listWidgets, async () => ({ ...page, data: [{ id: 'wid_1' }] }));
    // @ts-expect-error a page without its paging members
    apiRoute(listWidgets, async () => ({ data: [widget] }));
  });

  test('phased handlers are checked through their toAnswer, or directly without one', () => {
    phasedApiRoute(
      createWidget,
      async () => ({ declined: false, widget }),
      (result) => (result.declined ? respond(402, problem) : respond(201, result.widget)),
    );
    phasedApiRoute(
      createWidget,
      async () => ({ declined: false, widget }),
      // @ts-expect-error toAnswer must give a documented answer
      (result) => result,
    );
    phasedApiRoute(createWidget, async () => widget);
    // @ts-expect-error without toAnswer the handler's result is the answer
    phasedApiRoute(createWidget, async () => ({ widget }));
  });

  test('a real operation: GET /api/Price/{priceId} answers PriceResponse', () => {
    expectTypeOf<HandlerResult<typeof getPriceOperation>>().toEqualTypeOf<z.output<typeof PriceResponse> | ApiResponse<200, z.output<typeof PriceResponse>>>();
  });
});

const confirmThing = defineSessionOperation({
  id: 'confirmThing',
  method: 'POST',
  path: '/api/Thing/Confirm',
  tag: 'Sign-in',
  summary: 'Confirm',
  access: 'public',
  successStatus: 204,
});

const showThing = defineSessionOperation({
  id: 'showThing',
  method: 'GET',
  path: '/api/Thing',
  tag: 'Sign-in',
  summary: 'Show',
  access: ['merchant'],
  response: Widget,
});

describe('sign-in API handlers', () => {
  test('a 204 answers no body', () => {
    sessionRoute(confirmThing, async () => {});
    // @ts-expect-error a 204 has no body to return
    sessionRoute(confirmThing, async () => widget);
  });

  test('a body is typed by the response schema', () => {
    sessionRoute(showThing, async () => widget);
    // @ts-expect-error a documented member is missing
    sessionRoute(showThing, async () => ({ id: 'wid_1' }));
  });

  test('an operation that answers a body must declare its schema', () => {
    // @ts-expect-error no response schema for a 200
    defineSessionOperation({ id: 'undescribed', method: 'GET', path: '/api/Undescribed', tag: 'Sign-in', summary: 'Undescribed', access: ['admin'] });
  });
});
