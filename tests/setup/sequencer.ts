import fs from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files that boot a server of their own (embedded PostgreSQL, Next.js, restarts after SIGKILL)
 * take the longest; started last, as vitest does on a fresh clone with no timings cached (it
 * then runs larger files first), one of them alone sets the suite's wall time. They start first.
 */
export default class OwnServerFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const ownServer = new Map(sorted.map((file) => [file, fs.readFileSync(file.moduleId, 'utf8').includes('startServer(')]));
    const rank = (file: TestSpecification) => file.project.config.sequence.groupOrder * 2 + (ownServer.get(file) ? 0 : 1);
    return sorted
      .map((file, index) => ({ file, index }))
      .sort((a, b) => rank(a.file) - rank(b.file) || a.index - b.index)
      .map(({ file }) => file);
  }
}
