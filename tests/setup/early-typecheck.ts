import fs from 'node:fs';
import os from 'node:os';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import type { TestProject } from 'vitest/node';

/**
 * The `types` project checks the whole project with tsc (vitest.config.ts), and vitest runs type
 * checks after every other project: started then, a cold tsc (no incremental state yet, or many
 * files changed) adds 15–20 s of one core to the end of the run. This global setup of the `types`
 * project starts the same check when the run begins instead, at the lowest CPU priority, so it
 * uses the time the cores would idle (tests wait on servers, timers and each other) without
 * slowing the tests. The checker vitest runs at the end (tests/setup/typecheck-checker.mjs)
 * waits for it and prints its answer; the directory named after this process connects the two.
 */
const require = createRequire(import.meta.url);

/** tsc as vitest calls it (`--noEmit --pretty false --incremental`), with a build info file of its own. */
const EARLY_TSC_ARGS = ['--noEmit', '--pretty', 'false', '--incremental', '--tsBuildInfoFile', 'node_modules/.cache/paybase/typecheck.tsbuildinfo'];

export default function setup(project: TestProject) {
  // Watch mode checks again on every change: vitest's own tsc --watch does that.
  if (project.config.watch) return;
  const dir = `.data-test/typecheck-${process.pid}`;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(`${dir}/args.json`, JSON.stringify(EARLY_TSC_ARGS));
  const output = fs.openSync(`${dir}/output`, 'w');
  // A session of its own: where the kernel groups scheduling by session (autogroup), a low
  // priority counts only against the rest of the session, so the session is lowered as well.
  const tsc = spawn(process.execPath, [require.resolve('typescript/bin/tsc'), ...EARLY_TSC_ARGS], { stdio: ['ignore', output, output], detached: true });
  fs.closeSync(output);
  if (tsc.pid) lowerPriority(tsc.pid);
  // The checker reads `exit` once it exists, so `output` is complete by then.
  tsc.once('exit', (code) => fs.writeFileSync(`${dir}/exit`, String(code ?? 1)));
  return () => {
    tsc.removeAllListeners('exit');
    if (tsc.exitCode === null && tsc.signalCode === null) tsc.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}

function lowerPriority(pid: number) {
  os.setPriority(pid, os.constants.priority.PRIORITY_LOW);
  try {
    fs.writeFileSync(`/proc/${pid}/autogroup`, String(os.constants.priority.PRIORITY_LOW));
  } catch {
    // Not Linux, or no autogroup scheduling: the process priority is all there is.
  }
}
