import fs from 'node:fs';
import path from 'node:path';
import { createGenerator } from 'ts-json-schema-generator';
import { OPERATIONS } from './operations';

/**
 * Turns the request-parameter types of the installed `stripe` package into JSON Schemas, one
 * file per type in schemas/, with the package's version beside them (the emulator refuses to
 * start when they differ). Run after upgrading `stripe`: `npx tsx tests/stripe-emulator/generate-schemas.ts`.
 * Unknown members are refused (`additionalProperties: false`), as Stripe refuses unknown parameters.
 */
const root = path.resolve(import.meta.dirname, '../..');
const stripeDir = path.join(root, 'node_modules/stripe');
const outDir = path.join(import.meta.dirname, 'schemas');
fs.rmSync(outDir, { recursive: true, force: true });
fs.mkdirSync(outDir, { recursive: true });

const byFile = new Map<string, Set<string>>();
for (const op of OPERATIONS) byFile.set(op.resourceFile, (byFile.get(op.resourceFile) ?? new Set()).add(op.paramsType));

for (const [file, types] of byFile) {
  const generator = createGenerator({
    path: path.join(stripeDir, 'esm/resources', `${file}.d.ts`),
    tsconfig: undefined,
    skipTypeCheck: true,
    expose: 'none',
    topRef: false,
    additionalProperties: false,
    jsDoc: 'none',
  });
  for (const type of types) {
    const schema = generator.createSchema(type);
    fs.writeFileSync(path.join(outDir, `${type}.json`), `${JSON.stringify(schema)}\n`);
    console.log(`${type}: ${Object.keys(schema.properties ?? {}).length} parameters`);
  }
}
const version = JSON.parse(fs.readFileSync(path.join(stripeDir, 'package.json'), 'utf8')).version as string;
fs.writeFileSync(path.join(outDir, 'stripe-version.json'), `${JSON.stringify({ stripe: version })}\n`);
