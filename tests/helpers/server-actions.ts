import fs from 'node:fs';
import path from 'node:path';

/**
 * Calls a page's server action over HTTP as a browser does (the hosted pages and the portal are
 * server actions, not API routes): `POST` to the page with `Next-Action` naming the action (its
 * id, from the build's manifest, by file and export name) and the arguments as React encodes
 * them (`encodeReply`: form fields as `_<n>_<name>`, the argument list as field `0`). The answer
 * is the action's return value, read from the React Server Components stream.
 */
type Argument = string | Record<string, unknown> | FormFields;

/** A FormData argument: its fields. */
export class FormFields {
  constructor(readonly fields: Record<string, string>) {}
}

interface ActionCall {
  baseUrl: string;
  page: string;
  /** The module under app/ and its export, e.g. `app/portal/[customerId]/actions.ts`, `addCardAction`. */
  file: string;
  name: string;
  args: Argument[];
  cookie?: string;
}

export interface ActionAnswer<T> {
  status: number;
  value: T;
  /** `name=value` of each cookie the answer set. */
  cookies: string[];
  /** Where a `redirect()` in the action sends the browser. */
  redirect: string | null;
}

export async function callServerAction<T = Record<string, any>>(call: ActionCall): Promise<ActionAnswer<T>> {
  const body = new FormData();
  let part = 0;
  const encoded = call.args.map((arg) => {
    if (!(arg instanceof FormFields)) return arg;
    part++;
    for (const [name, value] of Object.entries(arg.fields)) body.append(`_${part}_${name}`, value);
    return `$K${part.toString(16)}`;
  });
  body.set('0', JSON.stringify(encoded));
  const response = await fetch(`${call.baseUrl}${call.page}`, {
    method: 'POST',
    headers: {
      'next-action': actionId(call.file, call.name),
      origin: call.baseUrl,
      accept: 'text/x-component',
      ...(call.cookie ? { cookie: call.cookie } : {}),
    },
    body,
    redirect: 'manual',
  });
  const text = await response.text();
  return {
    status: response.status,
    value: resultRow(text) as T,
    cookies: response.headers.getSetCookie().map((cookie) => cookie.split(';')[0]!),
    redirect: response.headers.get('x-action-redirect'),
  };
}

function actionId(file: string, name: string): string {
  const manifest = JSON.parse(fs.readFileSync(path.resolve('.next/server/server-reference-manifest.json'), 'utf8')) as {
    node: Record<string, { filename?: string; exportedName?: string }>;
  };
  const found = Object.entries(manifest.node).find(([, action]) => action.filename === file && action.exportedName === name);
  if (!found) throw new Error(`No server action ${name} of ${file} in the build`);
  return found[0];
}

/** The action's return value: the stream's row 1 (row 0 is the envelope pointing at it), or undefined when it returned nothing. */
function resultRow(stream: string): unknown {
  const row = stream.split('\n').find((line) => line.startsWith('1:'));
  return row ? JSON.parse(row.slice(2)) : undefined;
}
