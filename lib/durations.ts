const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** Parses `500ms`, `5s`, `30m`, `2h`, `5d` into milliseconds. */
export function parseDuration(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)\s*$/.exec(text);
  if (!match) throw new Error(`Not a duration: '${text}' (use e.g. 500ms, 5s, 30m, 2h, 5d).`);
  return Math.round(Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS]);
}

/** Parses a comma-separated list of durations, e.g. the retry schedule `5s,5m,30m,2h,5h,10h,10h`. */
export function parseDurationList(text: string): number[] {
  return text
    .split(',')
    .filter((part) => part.trim() !== '')
    .map(parseDuration);
}
