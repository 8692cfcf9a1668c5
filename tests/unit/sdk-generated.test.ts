import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sdkSources } from '@/lib/server/openapi/sdk-sources';

describe('packages/sdk', () => {
  it('holds the current OpenAPI document and the types generated from it (run `npm run sdk:generate`)', { timeout: 60_000 }, async () => {
    for (const [file, text] of Object.entries(await sdkSources())) {
      const committed = fs.readFileSync(path.resolve('packages/sdk', file), 'utf8').split('\n');
      const fresh = text.split('\n');
      const line = fresh.findIndex((content, index) => content !== committed[index]);
      const where = line === -1 ? 'the end' : `line ${line + 1}: ${fresh[line]!.trim()} ≠ ${committed[line]?.trim()}`;
      expect(line === -1 && fresh.length === committed.length, `packages/sdk/${file} is stale at ${where}: run npm run sdk:generate`).toBe(true);
    }
  });
});
