import { describe, expect, it } from 'vitest';
import { type CruisedModule, describeCycle, folderCycles, folderGraph, folderLayers } from '../../scripts/folder-cycles';

function modules(imports: Record<string, string[]>): CruisedModule[] {
  return Object.entries(imports).map(([source, targets]) => ({ source, dependencies: targets.map((resolved) => ({ resolved })) }));
}

describe('folder cycles of lib/', () => {
  it('puts every folder of lib/ one layer above the highest folder it imports, lib/server and its subfolders as one', () => {
    const graph = folderGraph(
      modules({
        'lib/errors.ts': [],
        'lib/server/http/api-route.ts': ['lib/errors.ts', 'lib/auth/sessions.ts', 'lib/server/jobs/worker.ts'],
        'lib/server/jobs/worker.ts': ['lib/merchants/users.ts'],
        'lib/auth/sessions.ts': ['lib/errors.ts', 'lib/clock.ts', 'lib/merchants/users.ts'],
        'lib/merchants/users.ts': ['lib/clock.ts', 'node_modules/zod/index.js'],
        'lib/clock.ts': [],
      }),
    );
    expect(folderCycles(graph)).toEqual([]);
    expect(folderLayers(graph)).toEqual([['lib/clock.ts', 'lib/errors.ts'], ['lib/merchants'], ['lib/auth'], ['lib/server']]);
  });

  it('reports a cycle between domain folders with the imports that make each edge', () => {
    const graph = folderGraph(
      modules({
        'lib/auth/sign-in.ts': ['lib/merchants/users.ts', 'lib/errors.ts'],
        'lib/auth/identity.ts': ['lib/merchants/users.ts'],
        'lib/merchants/team.ts': ['lib/auth/sessions.ts'],
        'lib/merchants/users.ts': [],
        'lib/auth/sessions.ts': [],
        'lib/catalog/prices.ts': ['lib/errors.ts'],
      }),
    );
    const cycles = folderCycles(graph);
    expect(cycles).toEqual([['lib/auth', 'lib/merchants']]);
    expect(describeCycle(graph, cycles[0] as string[])).toBe(
      [
        'Import cycle between folders: lib/auth, lib/merchants',
        '  lib/auth → lib/merchants (2 imports)',
        '      lib/auth/sign-in.ts → lib/merchants/users.ts',
        '      lib/auth/identity.ts → lib/merchants/users.ts',
        '  lib/merchants → lib/auth (1 import)',
        '      lib/merchants/team.ts → lib/auth/sessions.ts',
      ].join('\n'),
    );
  });

  it('counts a module that sits above its folder (a route wrapper left in lib/http) as an import running back up', () => {
    const graph = folderGraph(
      modules({
        'lib/http/api-route.ts': ['lib/auth/scopes.ts'],
        'lib/http/errors.ts': [],
        'lib/auth/scopes.ts': ['lib/http/errors.ts'],
      }),
    );
    const cycles = folderCycles(graph);
    expect(cycles).toEqual([['lib/auth', 'lib/http']]);
    expect(describeCycle(graph, cycles[0] as string[])).toBe(
      [
        'Import cycle between folders: lib/auth, lib/http',
        '  lib/auth → lib/http (1 import)',
        '      lib/auth/scopes.ts → lib/http/errors.ts',
        '  lib/http → lib/auth (1 import)',
        '      lib/http/api-route.ts → lib/auth/scopes.ts',
      ].join('\n'),
    );
  });
});
