#!/usr/bin/env node
// The `types` project's type checker (vitest.config.ts, `typecheck.checker`): vitest runs it with
// tsc's arguments after every other project and reads tsc's output from it. The check itself
// began with the run (tests/setup/early-typecheck.ts, in .data-test/typecheck-<vitest's pid>);
// this waits for it and prints its answer. Without one, or asked for something else (watch
// mode, other options), it runs tsc with the arguments it was given.
import fs from 'node:fs';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

const args = process.argv.slice(2);
const dir = `.data-test/typecheck-${process.ppid}`;

/** The options apart from where tsc keeps its incremental state. */
const withoutBuildInfo = (list) => list.filter((arg, i) => arg !== '--tsBuildInfoFile' && list[i - 1] !== '--tsBuildInfoFile');

function startedEarly() {
  try {
    const early = JSON.parse(fs.readFileSync(`${dir}/args.json`, 'utf8'));
    return JSON.stringify(withoutBuildInfo(early)) === JSON.stringify(withoutBuildInfo(args));
  } catch {
    return false;
  }
}

if (startedEarly()) {
  while (!fs.existsSync(`${dir}/exit`)) await new Promise((resolve) => setTimeout(resolve, 100));
  process.stdout.write(fs.readFileSync(`${dir}/output`));
  process.exitCode = Number(fs.readFileSync(`${dir}/exit`, 'utf8'));
} else {
  const tsc = spawn(process.execPath, [createRequire(import.meta.url).resolve('typescript/bin/tsc'), ...args], { stdio: 'inherit' });
  tsc.once('exit', (code) => {
    process.exitCode = code ?? 1;
  });
  // vitest stops its checker by killing it (at the end of a watch session): tsc stops with it.
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => tsc.kill(signal));
}
