/** `datetime-local` value (UTC, minutes) for a moment. */
export function toDateTimeLocal(date: Date): string {
  return date.toISOString().slice(0, 16);
}

export function formatDuration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

/** The event body as JSON, indented for reading (the request sends it on one line). */
export function prettyJson(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

/** A response body as text: indented when it is JSON, as received otherwise. */
export function prettyBody(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}
