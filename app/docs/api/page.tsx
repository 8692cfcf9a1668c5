import type { Metadata } from 'next';
import { buildOpenApiDocument } from '@/lib/server/openapi/document';
import { dereference } from '@/lib/server/openapi/dereference';
import { InlineCode, OperationCard, type OpenApiOperation } from './operation-card';

export const metadata: Metadata = { title: 'API reference' };

/**
 * The reference is the same for every request, so it is built once per process: the page renders
 * per request (its scripts carry the request's CSP nonce, docs/operations.md "Security headers"),
 * and building and dereferencing the document took most of a second each time.
 */
let reference: ReturnType<typeof buildReference> | undefined;

function buildReference() {
  const document = buildOpenApiDocument('');
  const operations = Object.entries(dereference(document).paths ?? {}).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method, operation: operation as OpenApiOperation })),
  );
  return { document, operations, tags: [...new Set(operations.map((entry) => entry.operation.tags[0]!))] };
}

export default function ApiReferencePage() {
  reference ??= buildReference();
  const { document, operations, tags } = reference;

  return (
    <div className="mx-auto flex max-w-6xl gap-10 px-6 py-10">
      <nav aria-label="API sections" className="sticky top-6 hidden h-fit w-48 shrink-0 md:block">
        <p className="text-xs font-semibold text-slate-500 uppercase">Resources</p>
        <ul className="mt-2 space-y-1">
          {tags.map((tag) => (
            <li key={tag}>
              <a className="text-sm text-slate-700 hover:text-brand-600" href={`#${tag}`}>
                {tag}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main className="min-w-0 flex-1">
        <h1 className="text-3xl font-bold">{document.info.title}</h1>
        <p className="mt-3 text-slate-600">
          <InlineCode text={document.info.description ?? ''} />
        </p>
        <p className="mt-2 text-sm text-slate-600">
          Errors are <code>application/problem+json</code> with a stable <code>code</code>. Lists take <code>page</code>, <code>pageSize</code> (≤100),{' '}
          <code>orderBy</code>, <code>orderDirection</code>, <code>createdFrom</code>, <code>createdTo</code>. Machine-readable:{' '}
          <a className="text-brand-600 underline" href="/api/openapi.json">
            /api/openapi.json
          </a>
          .
        </p>
        {tags.map((tag) => (
          <section key={tag} id={tag} className="mt-10">
            <h2 className="border-b border-slate-200 pb-2 text-2xl font-semibold">{tag}</h2>
            <div className="mt-4 space-y-4">
              {operations
                .filter((entry) => entry.operation.tags[0] === tag)
                .map((entry) => (
                  <OperationCard key={`${entry.method} ${entry.path}`} {...entry} />
                ))}
            </div>
          </section>
        ))}
      </main>
    </div>
  );
}
