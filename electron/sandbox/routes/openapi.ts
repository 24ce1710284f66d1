/**
 * `GET {base_url}/openapi.json` (no token): the OpenAPI 3.1 document of the
 * API as this sandbox serves it (openapi.ts), with `servers` and the token
 * URL of the address the request came to.
 */
import type { FastifyInstance } from 'fastify';
import type { Gateway } from '../gateway';
import type { RouteTable } from '../http';
import { buildOpenApiDocument, type RegisteredRoute } from '../openapi';

/** Path of the document under the version prefix. */
const OPENAPI_PATH = '/openapi.json';

/**
 * Registers the document route (public: the gateway skips it).
 * @param routes the live list of registered routes (openapi.ts `collectRoutes`).
 * @returns the document served to a base address (`http://127.0.0.1:4100`), cached per base.
 */
export function registerOpenApiRoute(app: FastifyInstance, table: RouteTable, gw: Gateway, routes: ReadonlyArray<RegisteredRoute>, prefix: string): (base: string) => unknown {
  const url = prefix + OPENAPI_PATH;
  table.add('GET', url);
  gw.publicRoutes.add(url);
  let cached: { base: string; count: number; doc: unknown } | undefined;
  const documentFor = (base: string): unknown => {
    // Routes are fixed once the app is ready; rebuild only for another host.
    if (!cached || cached.base !== base || cached.count !== routes.length) {
      cached = { base, count: routes.length, doc: buildOpenApiDocument({ baseUrl: base + prefix, tokenUrl: `${base}/oauth/token`, prefix, routes }) };
    }
    return cached.doc;
  };
  app.get(url, async (req) => documentFor(`${req.protocol}://${req.host}`));
  return documentFor;
}
