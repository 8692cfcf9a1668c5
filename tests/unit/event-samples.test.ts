import { describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '@/lib/events/types';
import { EVENT_SAMPLES } from '@/lib/webhooks/samples';
import { CURRENT_API_VERSION } from '@/lib/http/api-versions';
import { webhookBodyViolations } from '../helpers/contract';

/**
 * The sample bodies a test event carries (POST /api/WebhookEndpoint/{id}/Test) and docs/webhooks.md
 * shows hold to the document's own webhook schemas, with the `data.test` marker a test event has.
 */
describe('test events', () => {
  it('validate against the OpenAPI document, each type with its marker', () => {
    const violations = EVENT_TYPES.flatMap((type) => {
      const sample = EVENT_SAMPLES[type];
      const body = {
        id: 'evt_01JD3X5Q1W8K2M4N6P8R0T2V4X',
        apiVersion: CURRENT_API_VERSION,
        type,
        sequence: 7,
        createdAt: '2026-11-22T03:40:00.000Z',
        data: { ...sample.data, test: true },
      };
      return webhookBodyViolations(type, JSON.parse(JSON.stringify(body)));
    });
    expect(violations).toEqual([]);
  });

  it('are refused with another marker value, so the check above can fail', () => {
    const sample = EVENT_SAMPLES['product.created'];
    const body = {
      id: 'evt_1',
      apiVersion: CURRENT_API_VERSION,
      type: 'product.created',
      sequence: 1,
      createdAt: '2026-11-22T03:40:00.000Z',
      data: { ...sample.data, test: 'yes' },
    };
    expect(webhookBodyViolations('product.created', body)).not.toEqual([]);
  });
});
