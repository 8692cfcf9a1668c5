import fs from 'node:fs';
import path from 'node:path';
import { sdkSources } from '../lib/server/openapi/sdk-sources';

// Writes packages/sdk/openapi.json and packages/sdk/src/schema.ts; a test fails while they are stale.
const root = path.resolve(import.meta.dirname, '../packages/sdk');
for (const [file, text] of Object.entries(await sdkSources())) {
  fs.writeFileSync(path.join(root, file), text);
  console.log(`wrote packages/sdk/${file}`);
}
