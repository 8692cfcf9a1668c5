import { describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Document, Spectral, type RulesetDefinition } from '@stoplight/spectral-core';
import Parsers from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { call } from '../helpers/api';
import { ALL_OPERATIONS } from '@/lib/server/openapi/operations';
import { EVENT_TYPES } from '@/lib/events/types';

describe('GET /api/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document (the OpenAPI schema validator)', async () => {
    const answer = await call('GET', '/api/openapi.json');
    expect(answer.status).toBe(200);
    const validator = new Validator();
    const result = await validator.validate(answer.body);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('passes the Redocly linter (recommended rules) without a warning', async () => {
    const answer = await call('GET', '/api/openapi.json');
    // The document names the server it is served from.
    const config = await createConfig({ extends: ['recommended'], rules: { 'no-server-example.com': 'off' } });
    const problems = await lintFromString({ source: answer.text, absoluteRef: 'openapi.json', config });
    expect(problems.map((problem) => `${problem.severity} ${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer}`)).toEqual([]);
  });

  it("passes Spectral's OpenAPI ruleset (recommended rules) without a warning", async () => {
    const answer = await call('GET', '/api/openapi.json');
    const spectral = new Spectral();
    spectral.setRuleset({ extends: [[oas as RulesetDefinition, 'recommended']] });
    const results = await spectral.run(new Document(answer.text, Parsers.Json));
    expect(results.map((result) => `${result.code}: ${result.message} at ${result.path.join('.')}`)).toEqual([]);
    // Spectral takes 12 s on an idle machine and over 30 s beside the whole suite.
  }, 180_000);

  it('describes every developer-API operation with its scope, schemas, errors and Idempotency-Key', async () => {
    const document = (await call('GET', '/api/openapi.json')).body;
    for (const operation of ALL_OPERATIONS) {
      const described = document.paths[operation.path]?.[operation.method.toLowerCase()];
      expect(described, `${operation.method} ${operation.path}`).toBeDefined();
      expect(described.security).toEqual([{ apiKey: [] }]);
      expect(described['x-scope']).toBe(operation.scope);
      expect(described.responses[String(operation.successStatus ?? 200)]).toBeDefined();
      expect(described.responses['401']).toEqual({ $ref: '#/components/responses/Unauthenticated' });
      const idempotencyKey = (described.parameters ?? []).find((p: { $ref?: string }) => p.$ref?.includes('IdempotencyKey'));
      expect(Boolean(idempotencyKey), `${operation.id} Idempotency-Key`).toBe(Boolean(operation.idempotency));
      // Dated versions (docs/changelog.md): the request header may choose one.
      expect(described.parameters, operation.id).toContainEqual({ $ref: '#/components/parameters/RequestedApiVersion' });
      // The API key's rate limit (docs/api.md, "Rate limits"): a 429 and the quota on the success.
      expect(described.responses['429'], operation.id).toEqual({ $ref: '#/components/responses/ApiRateLimited' });
      expect(Object.keys(described.responses[String(operation.successStatus ?? 200)].headers ?? {}), operation.id).toEqual([
        'Paybase-Version',
        'RateLimit-Limit',
        'RateLimit-Remaining',
        'RateLimit-Reset',
        'RateLimit-Policy',
      ]);
      if (operation.method === 'GET' && described.parameters?.some((p: { $ref?: string }) => p.$ref?.endsWith('/PageSize'))) {
        expect(described.parameters, operation.id).toEqual(
          expect.arrayContaining([{ $ref: '#/components/parameters/StartingAfter' }, { $ref: '#/components/parameters/EndingBefore' }]),
        );
      }
    }
    expect(document.components.responses.ApiRateLimited.headers['Retry-After']).toBeDefined();
    expect(document.components.parameters.IdempotencyKey).toMatchObject({ name: 'Idempotency-Key', in: 'header', required: true });
    expect(document.components.responses.Unauthenticated.content['application/problem+json'].schema).toEqual({ $ref: '#/components/schemas/Problem' });
    expect(Object.keys(document.components.securitySchemes)).toEqual(['apiKey', 'signInToken']);
  });

  it('names its schemas as components and refers to them instead of inlining them', async () => {
    const answer = await call('GET', '/api/openapi.json');
    const document = answer.body;
    // One inlined document was 330 KB for 83 operations (about 4,000 bytes each); with components
    // each operation stays well under that (about 3,420 with the rate-limit and Paybase-Version
    // headers on every answer and the version parameter on every operation, which are references
    // too, a webhook body per event type, the error codes' extra members and metered prices' tiers).
    const operations = Object.values(document.paths as Record<string, object>).reduce((sum, methods) => sum + Object.keys(methods).length, 0);
    expect(answer.text.length / operations).toBeLessThan(3_600);
    const createPrice = document.paths['/api/Price'].post;
    expect(createPrice.requestBody).toEqual({ $ref: '#/components/requestBodies/CreatePriceBody' });
    expect(createPrice.responses['201'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/PriceResponse' });
    const body = document.components.requestBodies.CreatePriceBody.content['application/json'].schema;
    expect(body.properties.type.enum).toEqual(['OneTime', 'Recurring']);
    expect(body.properties.amount.maximum).toBe(2147483647);
    const listPrices = document.paths['/api/Price'].get;
    const names = listPrices.parameters.map((p: { name?: string; $ref?: string }) => p.name ?? p.$ref!.split('/').pop());
    expect(names).toEqual(expect.arrayContaining(['Page', 'PageSize', 'orderBy', 'OrderDirection', 'CreatedFrom', 'CreatedTo', 'productId']));
  });

  it('documents the answers particular to an operation', async () => {
    const { paths } = (await call('GET', '/api/openapi.json')).body;
    expect(Object.keys(paths['/api/Customer/{customerId}'].put.responses)).toContain('409');
    expect(Object.keys(paths['/api/TestClock/{testClockId}/Customer'].post.responses)).toContain('409');
    expect(Object.keys(paths['/api/Customer/{customerId}/EntitlementOverride'].post.responses)).toEqual(expect.arrayContaining(['200', '201']));
    expect(Object.keys(paths['/api/Checkout'].post.responses)).toContain('402');
  });

  it('describes the body of every webhook event type', async () => {
    const document = (await call('GET', '/api/openapi.json')).body;
    expect(Object.keys(document.webhooks).sort()).toEqual([...EVENT_TYPES].sort());
    const delivery = document.webhooks['payment.succeeded'].post;
    expect(delivery.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/PaymentSucceededEventBody' });
    const body = document.components.schemas.PaymentSucceededEventBody;
    expect(body.properties.data.properties.object).toEqual({ $ref: '#/components/schemas/PaymentEvent' });
    expect(document.components.schemas.PaymentEvent.allOf ?? document.components.schemas.PaymentEvent.properties).toBeDefined();
    expect(delivery.parameters).toContainEqual({ $ref: '#/components/parameters/X-Service-Signature' });
    expect(delivery.parameters).toContainEqual({ $ref: '#/components/parameters/Paybase-Version' });
    expect(body.required).toContain('apiVersion');
  });

  it("declares each error code's extra problem members, which the SDK types by code", async () => {
    const { components } = (await call('GET', '/api/openapi.json')).body;
    const extras = components.schemas.Problem['x-problem-extras'];
    expect(extras.PAYMENT_DECLINED.required).toEqual(['declineCode']);
    expect(Object.keys(extras.PAYMENT_DECLINED.properties)).toEqual(['declineCode', 'declineMessage', 'checkout', 'payment']);
    expect(extras.INVALID_STATE.properties.state).toMatchObject({ type: 'string' });
    expect(extras.VALIDATION_FAILED.properties.knownVersions).toMatchObject({ type: 'array' });
    expect(components.parameters.RequestedApiVersion).toMatchObject({ name: 'Paybase-Version', in: 'header', required: false });
    expect(components.headers['Paybase-Version']).toBeDefined();
  });

  it('serves a readable API reference page', async () => {
    const answer = await call('GET', '/docs/api');
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('/api/Price/{priceId}/EntitlementPolicy');
    expect(answer.text).toContain('prices:write');
  });
});
