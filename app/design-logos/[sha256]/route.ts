import { getDb } from '@/lib/db/client';
import { findLogo } from '@/lib/designs/logos';
import { ApiError } from '@/lib/errors';
import { publicRoute } from '@/lib/server/http/public-route';

/**
 * A design's logo by the SHA-256 of its bytes: the address names the content, so it is cached
 * for good. The type was read from the bytes at upload; nosniff and a sandboxing CSP make sure a
 * browser never treats it as anything but that image.
 */
export const GET = publicRoute(async (request) => {
  const sha256 = new URL(request.url).pathname.split('/').pop() ?? '';
  const logo = await findLogo(getDb(), sha256);
  if (!logo) throw new ApiError('NOT_FOUND', 'No such logo.');
  return new Response(new Uint8Array(logo.bytes), {
    headers: {
      'Content-Type': logo.contentType,
      'Content-Length': String(logo.byteSize),
      'Cache-Control': 'public, max-age=31536000, immutable',
      ETag: `"${logo.sha256}"`,
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; sandbox",
      'Cross-Origin-Resource-Policy': 'cross-origin',
    },
  });
});
