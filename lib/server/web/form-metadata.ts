import { invalidField } from '../../errors';

/**
 * Metadata typed into a console textarea, one `key=value` per line (blank lines ignored). The
 * result still goes through the API's `Metadata` schema, so the limits are the API's.
 */
export function parseMetadataLines(text: string, fieldName = 'metadata'): Record<string, string> {
  const metadata: Record<string, string> = {};
  const lines = text.split(/\r?\n/);
  for (const [index, line] of lines.entries()) {
    if (!line.trim()) continue;
    const separator = line.indexOf('=');
    if (separator <= 0) throw invalidField(fieldName, `Line ${index + 1}: write key=value.`);
    const key = line.slice(0, separator).trim();
    if (Object.hasOwn(metadata, key)) throw invalidField(fieldName, `Line ${index + 1}: the key “${key}” appears twice.`);
    metadata[key] = line.slice(separator + 1).trim();
  }
  return metadata;
}

/** The reverse, for the textarea's initial text. */
export function metadataLines(metadata: Record<string, string>): string {
  return Object.entries(metadata)
    .map(([key, value]) => `${key}=${value}`)
    .join('\n');
}
