import { publicRoute } from '@/lib/server/http/public-route';
import { buildOpenApiDocument } from '@/lib/server/openapi/document';

export const GET = publicRoute((request) => Response.json(buildOpenApiDocument(new URL(request.url).origin)));
