import { publicRoute } from '@/lib/http/public-route';
import { buildOpenApiDocument } from '@/lib/openapi/document';

export const GET = publicRoute((request) => Response.json(buildOpenApiDocument(new URL(request.url).origin)));
