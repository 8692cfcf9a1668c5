/**
 * Dates typed into console forms. Every console date is UTC (the labels say so), so a filter or
 * an expiry means the same instant whoever reads it.
 */

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const LOCAL_DATETIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

function validDay(year: number, month: number, day: number): Date | undefined {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? date : undefined;
}

/**
 * A `<input type="date">` value as the first (`start`) or last (`end`) millisecond of that UTC
 * day, for an inclusive "from … to …" filter. Undefined when empty or not a real date.
 */
export function parseDayBound(text: string | undefined, bound: 'start' | 'end'): Date | undefined {
  const match = DAY.exec(text?.trim() ?? '');
  if (!match) return undefined;
  const day = validDay(Number(match[1]), Number(match[2]), Number(match[3]));
  if (!day) return undefined;
  return bound === 'start' ? day : new Date(day.getTime() + 24 * 60 * 60 * 1000 - 1);
}

/** A `<input type="datetime-local">` value read as UTC. Undefined when empty or not a real moment. */
export function parseUtcDateTimeLocal(text: string | undefined): Date | undefined {
  const match = LOCAL_DATETIME.exec(text?.trim() ?? '');
  if (!match) return undefined;
  const [hours, minutes, seconds] = [Number(match[4]), Number(match[5]), Number(match[6] ?? 0)];
  if (hours > 23 || minutes > 59 || seconds > 59) return undefined;
  const day = validDay(Number(match[1]), Number(match[2]), Number(match[3]));
  return day ? new Date(day.getTime() + ((hours * 60 + minutes) * 60 + seconds) * 1000) : undefined;
}
