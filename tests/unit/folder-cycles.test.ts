import { describe, expect, it } from 'vitest';
import { type CruisedModule, describeCycle, FOUNDATION, folderCycles, folderGraph, folderLayers, TOP } from '../../scripts/folder-cycles';

const layers = { infrastructure: [/^lib\/[^/]+\.ts$/, /^lib\/http\//], top: [/^lib\/http\/api-route\.ts$/] };

function modules(imports: Record<string, string[]>): CruisedModule[] {
  return Object.entries(imports).map(([source, targets]) => ({ source, dependencies: targets.map((resolved) => ({ resolved })) }));
}

describe('folder cycles of lib/', () => {
  it('splits an infrastructure folder into its foundation and top parts, so a route wrapper above a domain makes no cycle', () => {
    const graph = folderGraph(
      modules({
        'lib/http/errors.ts': [],
        'lib/http/api-route.ts': ['lib/http/errors.ts', 'lib/auth/sessions.ts'],
        'lib/auth/sessions.ts': ['lib/http/errors.ts', 'lib/clock.ts', 'lib/merchants/users.ts'],
        'lib/merchants/users.ts': ['lib/clock.ts', 'node_modules/zod/index.js'],
        'lib/clock.ts': [],
      }),
      layers,
    );
    expect(folderCycles(graph)).toEqual([]);
    expect(folderLayers(graph)).toEqual([[FOUNDATION], ['lib/merchants'], ['lib/auth'], [TOP]]);
  });

  it('reports a cycle between domain folders with the imports that make each edge', () => {
    const graph = folderGraph(
      modules({
        'lib/auth/sign-in.ts': ['lib/merchants/users.ts', 'lib/http/errors.ts'],
        'lib/auth/identity.ts': ['lib/merchants/users.ts'],
        'lib/merchants/team.ts': ['lib/auth/sessions.ts'],
        'lib/merchants/users.ts': [],
        'lib/auth/sessions.ts': [],
        'lib/catalog/prices.ts': ['lib/http/errors.ts'],
      }),
      layers,
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

  it('counts a foundation module importing a domain as a cycle through the foundation', () => {
    const graph = folderGraph(
      modules({
        'lib/http/operation.ts': ['lib/auth/scopes.ts'],
        'lib/auth/scopes.ts': ['lib/http/errors.ts'],
      }),
      layers,
    );
    const cycles = folderCycles(graph);
    expect(cycles).toEqual([[FOUNDATION, 'lib/auth']]);
    expect(describeCycle(graph, cycles[0] as string[])).toBe(
      [
        'Import cycle between folders: infrastructure (foundation), lib/auth',
        '  infrastructure (foundation) → lib/auth (1 import)',
        '      lib/http/operation.ts → lib/auth/scopes.ts',
        '  and 1 edge into the foundation or out of the top, as the layers expect',
      ].join('\n'),
    );
  });
});
