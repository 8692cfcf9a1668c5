import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { designLogos } from '../db/schema';
import { config } from '../config';
import { invalidField } from '../errors';
import { MAX_LOGO_BYTES } from './schemas';

export type LogoContentType = (typeof designLogos.$inferSelect)['contentType'];

export interface DecodedLogo {
  bytes: Buffer;
  contentType: LogoContentType;
  sha256: string;
}

const startsWith = (bytes: Buffer, signature: number[], offset = 0) => signature.every((byte, i) => bytes[offset + i] === byte);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/**
 * The image type read from the bytes themselves (never from a name or a declared type), so
 * what is served with a given Content-Type is that kind of image. SVG is refused: it is a
 * document that can carry script.
 */
export function sniffImageType(bytes: Buffer): LogoContentType | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  return undefined;
}

function looksLikeMarkup(bytes: Buffer): boolean {
  return /^\s*</.test(
    bytes
      .subarray(0, 512)
      .toString('utf8')
      .replace(/^\uFEFF/, ''),
  );
}

/** Checks an uploaded logo (base64 in the API body) and names `field` when it is refused. */
export function decodeLogo(base64: string, field = 'logoBase64'): DecodedLogo {
  const compact = base64.replace(/\s+/g, '');
  if (compact.length === 0 || compact.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) {
    throw invalidField(field, 'The logo must be the image file base64-encoded (standard alphabet, with padding).');
  }
  const bytes = Buffer.from(compact, 'base64');
  if (bytes.length > MAX_LOGO_BYTES) {
    throw invalidField(field, `The logo is ${bytes.length} bytes; at most ${MAX_LOGO_BYTES} bytes (${MAX_LOGO_BYTES / 1024} KiB) are accepted.`);
  }
  const contentType = sniffImageType(bytes);
  if (!contentType) {
    throw invalidField(
      field,
      looksLikeMarkup(bytes)
        ? 'SVG and other markup are not accepted as a logo (they can carry script); upload a PNG, JPEG or WebP image.'
        : 'The logo is not a PNG, JPEG or WebP image.',
    );
  }
  return { bytes, contentType, sha256: crypto.createHash('sha256').update(bytes).digest('hex') };
}

/** Stores the image once per content; a second upload of the same bytes changes nothing. */
export async function storeLogo(tx: Db, logo: DecodedLogo): Promise<string> {
  await tx
    .insert(designLogos)
    .values({ sha256: logo.sha256, contentType: logo.contentType, byteSize: logo.bytes.length, bytes: logo.bytes })
    .onConflictDoNothing();
  return logo.sha256;
}

export async function findLogo(db: Db, sha256: string) {
  if (!/^[0-9a-f]{64}$/.test(sha256)) return undefined;
  const [row] = await db.select().from(designLogos).where(eq(designLogos.sha256, sha256));
  return row;
}

export function logoPath(sha256: string): string {
  return `/design-logos/${sha256}`;
}

export function logoUrl(sha256: string | null): string | null {
  return sha256 ? `${config.publicUrl}${logoPath(sha256)}` : null;
}
