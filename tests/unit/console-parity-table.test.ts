import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../lib/server/openapi/document';

const WRITE_METHODS = ['post', 'put', 'patch', 'delete'];
const SECTION = '## Every API write and its console page';

type DocumentedOperation = { security?: Record<string, unknown>[]; 'x-scope'?: string; 'x-audiences'?: string[] };

/**
 * The writes a seller makes (the rule docs/console.md states): developer-API writes, and sign-in-API
 * writes for the `merchant` audience that are not the sign-in flows under /api/MerchantAuth/.
 */
function sellerWrites(): string[] {
  const document = buildOpenApiDocument('http://localhost');
  const writes: string[] = [];
  for (const [route, methods] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(methods as Record<string, DocumentedOperation>)) {
      if (!WRITE_METHODS.includes(method) || !route.startsWith('/api/')) continue;
      const developerApi = operation['x-scope'] !== undefined;
      const sellerSession = operation['x-audiences']?.includes('merchant') === true && !route.startsWith('/api/MerchantAuth/');
      if (developerApi || sellerSession) writes.push(`${method.toUpperCase()} ${route}`);
    }
  }
  return writes.sort();
}

/** Rows of the table: operation → console page. */
function tableRows(): Map<string, string> {
  const text = fs.readFileSync(path.join(import.meta.dirname, '../../docs/console.md'), 'utf8');
  const start = text.indexOf(SECTION);
  expect(start, `docs/console.md has a "${SECTION}" section`).toBeGreaterThan(-1);
  const section = text.slice(start, text.indexOf('\n## ', start + SECTION.length));
  const rows = new Map<string, string>();
  for (const match of section.matchAll(/^\| `([A-Z]+ \/api\/[^`]+)` \| ([^|]+) \|/gm)) rows.set(match[1]!, match[2]!.trim());
  return rows;
}

describe('docs/console.md: every API write and its console page', () => {
  const writes = sellerWrites();
  const rows = tableRows();

  it('lists every seller write of the OpenAPI document', () => {
    expect(writes.length).toBeGreaterThan(40);
    expect(writes.filter((operation) => !rows.has(operation))).toEqual([]);
  });

  it('lists no operation the document does not have', () => {
    expect([...rows.keys()].filter((operation) => !writes.includes(operation))).toEqual([]);
  });
});
