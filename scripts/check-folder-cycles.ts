/**
 * Fails on any import cycle between folders of lib/ (docs/conventions.md, "Layers"); run by
 * `npm run lint:deps` after the dependency-cruiser rules. dependency-cruiser's own folder-scope
 * rules see lib/http, lib/events and lib/jobs as one folder each, so they cannot tell the
 * foundation part of a folder from its top part; this check reads the two parts from the rules
 * of `.dependency-cruiser.cjs` and cruises lib/ with that config (`--output-type json`).
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { type CruisedModule, describeCycle, folderCycles, folderGraph, folderLayers, type Layers } from './folder-cycles';

const root = path.resolve(import.meta.dirname, '..');
const configFile = path.join(root, '.dependency-cruiser.cjs');

interface Rule {
  name: string;
  from: { path?: string[] };
  to: { path?: string[] };
}

function layersFromConfig(): Layers {
  const { forbidden } = createRequire(import.meta.url)(configFile) as { forbidden: Rule[] };
  const patterns = (name: string, side: 'from' | 'to') => {
    const rule = forbidden.find((candidate) => candidate.name === name);
    if (!rule?.[side].path) throw new Error(`${configFile} has no rule ${name} with ${side}.path`);
    return rule[side].path.map((pattern) => new RegExp(pattern));
  };
  return { infrastructure: patterns('infrastructure-foundation-imports-no-domain', 'from'), top: patterns('top-imported-by-no-domain', 'to') };
}

function cruiseLib(): CruisedModule[] {
  const cruised = spawnSync(path.join(root, 'node_modules/.bin/depcruise'), ['--config', configFile, '--output-type', 'json', 'lib'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (cruised.error) throw cruised.error;
  // depcruise exits non-zero when a rule is broken; its own run in lint:deps reports those.
  if (!cruised.stdout) throw new Error(`depcruise printed nothing (exit ${cruised.status}): ${cruised.stderr}`);
  return (JSON.parse(cruised.stdout) as { modules: CruisedModule[] }).modules;
}

const graph = folderGraph(cruiseLib(), layersFromConfig());
const cycles = folderCycles(graph);
if (cycles.length > 0) {
  for (const members of cycles) console.error(`${describeCycle(graph, members)}\n`);
  console.error(
    `✘ ${cycles.length} import cycle${cycles.length === 1 ? '' : 's'} between lib/ folders. Move the shared piece to the lower folder that owns it (docs/conventions.md, "Layers").`,
  );
  process.exit(1);
}
console.log('✔ no import cycles between lib/ folders; each line imports only the lines above it:');
for (const layer of folderLayers(graph)) console.log(`  ${layer.map((node) => node.replace(/^lib\//, '')).join(', ')}`);
