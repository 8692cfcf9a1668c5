/**
 * Fails on any import cycle between folders of lib/ (docs/conventions.md, "Layers"): the
 * folders are the layers, so an import that runs back up from a lower folder to a higher one
 * makes a cycle. Run by `npm run lint:deps` after the dependency-cruiser rules, which cannot see
 * folder cycles; this check cruises lib/ with the same config (`--output-type json`).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { type CruisedModule, describeCycle, folderCycles, folderGraph, folderLayers } from './folder-cycles';

const root = path.resolve(import.meta.dirname, '..');
const configFile = path.join(root, '.dependency-cruiser.cjs');

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

const graph = folderGraph(cruiseLib());
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
