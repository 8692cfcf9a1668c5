import { describe, expect, it } from 'vitest';
import { call } from '../helpers/api';
import { ALL_OPERATIONS } from '@/lib/openapi/operations';

describe('GET /api/openapi.json', () => {
  it('describes every developer-API operation with its scope, schemas and error shape', async () => {
    const answer = await call('GET', '/api/openapi.json');
    expect(answer.status).toBe(200);
    const document = answer.body;
    expect(document.openapi).toBe('3.1.0');
    for (const operation of ALL_OPERATIONS) {
      const described = document.paths[operation.path]?.[operation.method.toLowerCase()];
      expect(described, `${operation.method} ${operation.path}`).toBeDefined();
      expect(described.security).toEqual([{ apiKey: [operation.scope] }]);
      expect(described.responses[String(operation.successStatus ?? 200)]).toBeDefined();
      expect(described.responses['401'].content['application/problem+json']).toBeDefined();
    }
    const createPrice = document.paths['/api/Price'].post;
    const body = createPrice.requestBody.content['application/json'].schema;
    expect(body.properties.type.enum).toEqual(['OneTime', 'Recurring']);
    expect(body.properties.amount.maximum).toBe(2147483647);
    const listPrices = document.paths['/api/Price'].get;
    expect(listPrices.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['page', 'pageSize', 'orderBy', 'orderDirection', 'createdFrom', 'createdTo', 'productId']),
    );
  });

  it('serves a readable API reference page', async () => {
    const answer = await call('GET', '/docs/api');
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('/api/Price/{priceId}/EntitlementPolicy');
    expect(answer.text).toContain('prices:write');
  });
});
