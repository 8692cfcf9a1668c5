import { describe, expect, it } from 'vitest';
import { currentBlock, HISTORY_HEADING, replaceCurrentBlock, type Run } from '../../bench/results-file';

const intro = '# Benchmark results\n\nHow to run them and read this file.\n\n## Current figures\n\n';
const apiBlock = '<!-- current:api -->\n### API\n\n| endpoint | req/s |\n|---|---:|\n| GET /api/health | 900 |\n\n<!-- /current:api -->';
const listsBlock = '<!-- current:lists -->\n### Lists\n\n| page | HTTP p50 |\n|---|---:|\n| page=1 | 107.2 ms |\n\n<!-- /current:lists -->';
const history = `${HISTORY_HEADING}\n\n## API request path: 2026-11-27T06:39:00.603Z\n\n| endpoint | req/s |\n|---|---:|\n| GET /api/health | 426 |\n\n<!-- a comment -->\n`;
const document = `${intro}${apiBlock}\n\n${listsBlock}\n\n${history}`;

describe('bench/RESULTS.md, "Current figures"', () => {
  it("replaces one benchmark's block and leaves the other block and the history byte for byte", () => {
    const newApi = '<!-- current:api -->\n### API\n\n| endpoint | req/s |\n|---|---:|\n| GET /api/health | 1043 |\n\n<!-- /current:api -->';

    const updated = replaceCurrentBlock(document, 'api', newApi);

    expect(updated).toBe(`${intro}${newApi}\n\n${listsBlock}\n\n${history}`);
    expect(updated.endsWith(`${listsBlock}\n\n${history}`)).toBe(true);
  });

  it('appends the block of a benchmark that has none yet at the end of "Current figures", before the history', () => {
    const documentsBlock = '<!-- current:documents -->\n### Invoice documents\n<!-- /current:documents -->';

    const updated = replaceCurrentBlock(document, 'documents', documentsBlock);

    expect(updated).toBe(`${intro}${apiBlock}\n\n${listsBlock}\n\n${documentsBlock}\n\n${history}`);
  });

  it('replaces the block a benchmark got on its first run on the next run', () => {
    const first = replaceCurrentBlock(document, 'usage', '<!-- current:usage -->\nfirst\n<!-- /current:usage -->');

    const second = replaceCurrentBlock(first, 'usage', '<!-- current:usage -->\nsecond\n<!-- /current:usage -->');

    expect(second).toBe(`${intro}${apiBlock}\n\n${listsBlock}\n\n<!-- current:usage -->\nsecond\n<!-- /current:usage -->\n\n${history}`);
  });

  it('refuses a file without the history heading, and a block without its end marker', () => {
    expect(() => replaceCurrentBlock(`${intro}${apiBlock}\n`, 'api', apiBlock)).toThrow(/History/);
    expect(() => replaceCurrentBlock(document.replace('<!-- /current:api -->', ''), 'api', apiBlock)).toThrow(/end marker/);
  });

  it("draws a benchmark's block with the run's date, commit and machine above its table, between its markers", () => {
    const run: Run = {
      date: '2026-11-27T19:00:00.000Z',
      commit: 'abc1234',
      machine: '2 × AMD EPYC, 24 GiB RAM, Linux 6.18, Node v20.20.2',
      load: 'load average at the end 1.0 / 1.0 / 1.0',
      settings: 'BENCH_RUNS=10',
    };

    const block = currentBlock(
      { benchmark: 'documents', title: 'Invoice documents', about: 'One paid invoice.', columns: ['scenario', 'p50'], rows: [['invoice PDF, ja', '75 ms']] },
      run,
    );

    expect(block).toBe(
      [
        '<!-- current:documents -->',
        '### Invoice documents',
        '',
        'Measured 2026-11-27T19:00:00.000Z at commit abc1234 on 2 × AMD EPYC, 24 GiB RAM, Linux 6.18, Node v20.20.2; load average at the end 1.0 / 1.0 / 1.0. Run with BENCH_RUNS=10.',
        'One paid invoice.',
        '',
        '| scenario | p50 |',
        '|---|---:|',
        '| invoice PDF, ja | 75 ms |',
        '',
        '<!-- /current:documents -->',
      ].join('\n'),
    );
  });
});
