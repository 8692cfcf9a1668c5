export interface OpenApiOperation {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  parameters?: { name: string; in: string; required: boolean; description?: string; schema: Record<string, unknown> }[];
  requestBody?: { content: { 'application/json': { schema: JsonSchema } } };
  responses: Record<string, { description: string }>;
}

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  description?: string;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  format?: string;
}

const METHOD_COLORS: Record<string, string> = {
  get: 'bg-emerald-100 text-emerald-800',
  post: 'bg-blue-100 text-blue-800',
  put: 'bg-amber-100 text-amber-800',
  delete: 'bg-red-100 text-red-800',
};

function typeLabel(schema: JsonSchema): string {
  if (schema.enum) return schema.enum.map(String).join(' | ');
  if (schema.anyOf) return schema.anyOf.map(typeLabel).join(' | ');
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : (schema.type ?? 'any');
  return schema.format ? `${type} (${schema.format})` : type;
}

/** Renders `backticked` spans of a description as code. */
export function InlineCode({ text }: { text: string }) {
  return (
    <>
      {text.split('`').map((part, index) =>
        index % 2 ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one split string: a part's position is its identity.
          <code key={index} className="rounded bg-slate-100 px-1 font-mono text-[0.9em]">
            {part}
          </code>
        ) : (
          part
        ),
      )}
    </>
  );
}

function Fields({ rows }: { rows: { name: string; required: boolean; schema: JsonSchema; description?: string }[] }) {
  return (
    <table className="mt-2 w-full table-fixed text-left text-sm">
      <tbody>
        {rows.map((row) => (
          <tr key={row.name} className="border-t border-slate-100 align-top">
            <td className="w-1/3 py-1.5 pr-4 font-mono wrap-anywhere text-slate-900">
              {row.name}
              {row.required ? (
                <span className="ml-1 text-red-600" title="required">
                  *
                </span>
              ) : null}
            </td>
            <td className="w-1/4 py-1.5 pr-4 font-mono text-xs wrap-anywhere text-slate-500">{typeLabel(row.schema)}</td>
            <td className="py-1.5 wrap-anywhere text-slate-600">
              <InlineCode text={row.description ?? row.schema.description ?? ''} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function OperationCard({ path, method, operation }: { path: string; method: string; operation: OpenApiOperation }) {
  const body = operation.requestBody?.content['application/json'].schema;
  const bodyRows = Object.entries(body?.properties ?? {}).map(([name, schema]) => ({
    name,
    schema,
    required: (body?.required ?? []).includes(name),
  }));
  return (
    <article id={operation.operationId} className="rounded-lg border border-slate-200 bg-white p-5">
      {/* The operation is the heading between its resource (h2) and its parts (h4). */}
      <h3 className="flex flex-wrap items-center gap-3 font-normal">
        <span className={`rounded px-2 py-0.5 font-mono text-xs font-bold uppercase ${METHOD_COLORS[method] ?? ''}`}>{method}</span>
        <code className="font-mono text-sm font-semibold break-all">{path}</code>
        <span className="text-sm text-slate-500">{operation.summary}</span>
      </h3>
      <p className="mt-2 text-sm text-slate-700">
        <InlineCode text={operation.description} />
      </p>
      {operation.parameters && operation.parameters.length > 0 && (
        <>
          <h4 className="mt-4 text-xs font-semibold text-slate-500 uppercase">Parameters</h4>
          <Fields rows={operation.parameters.map((p) => ({ ...p, name: `${p.name} (${p.in})` }))} />
        </>
      )}
      {bodyRows.length > 0 && (
        <>
          <h4 className="mt-4 text-xs font-semibold text-slate-500 uppercase">Body</h4>
          <Fields rows={bodyRows} />
        </>
      )}
      <h4 className="mt-4 text-xs font-semibold text-slate-500 uppercase">Responses</h4>
      <ul className="mt-1 text-sm text-slate-600">
        {Object.entries(operation.responses).map(([status, response]) => (
          <li key={status}>
            <span className="font-mono">{status}</span> <InlineCode text={response.description} />
          </li>
        ))}
      </ul>
    </article>
  );
}
