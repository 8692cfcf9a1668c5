/**
 * Invoice documents benchmark: the real service, one paid invoice, then the server time of its
 * hosted page and its PDF in English (Helvetica only) and in Japanese (BIZ UDPGothic embedded,
 * cut by HarfBuzz per request), beside GET /api/health on the same server, p50/p99 of requests
 * one at a time, and the PDF's size. Results go to bench/RESULTS.md (bench/results-file.ts).
 *
 *   npm run bench -- documents
 */
import { startServer } from '../tests/setup/server';
import { demoApi, demoApiKey, timeRunsMs as time } from './common';
import { finishedRun, recordRun, tableSection } from './results-file';

const RUNS = Number(process.env.BENCH_RUNS ?? 50);

export async function runDocumentsBench() {
  console.log('starting the service…');
  const server = await startServer({ env: { LOG_LEVEL: 'warn' } });
  const rows: { scenario: string; p50: number; p99: number; bytes: number | null }[] = [];
  try {
    const api = demoApi(server, demoApiKey(server));
    const link = (await api('POST', '/api/PaymentLink', { name: 'Matcha set', unitAmount: 4500, currency: 'JPY' })).body;
    const checkout = (
      await api('POST', '/api/Checkout', {
        paymentLinkToken: link.token,
        customerEmail: 'bench-documents@example.com',
        customerName: '山田 花子',
        tokenRef: 'tok_visa',
      })
    ).body;
    const record = (await api('GET', `/api/BillingRecord/${checkout.billingRecordId}`)).body;
    const get = (url: string, language: string) => async () => {
      const response = await fetch(url, { headers: { 'accept-language': language } });
      if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
      return (await response.arrayBuffer()).byteLength;
    };
    const scenarios: [string, string, string][] = [
      ['GET /api/health', `${server.baseUrl}/api/health`, 'en'],
      ['hosted invoice page, en', record.hostedInvoiceUrl, 'en'],
      ['hosted invoice page, ja', record.hostedInvoiceUrl, 'ja'],
      ['invoice PDF, en', record.invoicePdfUrl, 'en'],
      ['invoice PDF, ja', record.invoicePdfUrl, 'ja'],
    ];
    for (const [scenario, url, language] of scenarios) {
      const bytes = url.endsWith('/pdf') ? await get(url, language)() : null;
      rows.push({ scenario, ...(await time(RUNS, get(url, language))), bytes });
      console.log(rows.at(-1));
    }
  } finally {
    await server.stop();
  }
  const run = finishedRun();
  const columns = ['scenario', 'p50', 'p99', 'PDF size'];
  const cells = rows.map((r) => [r.scenario, `${r.p50} ms`, `${r.p99} ms`, r.bytes === null ? '–' : `${(r.bytes / 1024).toFixed(1)} KiB`]);
  recordRun(
    run,
    tableSection(
      'Invoice documents',
      `One paid invoice (\`npm run bench -- documents\`): its hosted page and PDF over loopback HTTP, one request at a time, ${RUNS} runs after 3 warm-ups, beside GET /api/health on the same server. The Japanese PDF embeds BIZ UDPGothic cut by HarfBuzz to the glyphs it uses, on every request.`,
      run,
      columns,
      cells,
    ),
    {
      benchmark: 'documents',
      title: 'Invoice documents (`npm run bench -- documents`)',
      about: `One paid invoice's hosted page and PDF over loopback HTTP, one request at a time, ${RUNS} runs after 3 warm-ups, beside GET /api/health on the same server.`,
      columns,
      rows: cells,
    },
  );
}
