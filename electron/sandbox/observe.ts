/**
 * Response observers: every answer the sandbox sends, handed to listeners
 * registered in this process, with the OpenAPI document the same sandbox
 * serves at `GET {base_url}/openapi.json`. The integration suite registers one
 * (test/integration/openapi/setup.ts) and checks each answer against that
 * document, so a schema that drifts from the wire fails CI. With no listener
 * registered the hook costs one `Set.size` check per response.
 */
import type { FastifyInstance } from 'fastify';

/** One answer as it left the sandbox. */
export interface ObservedResponse {
  /** Request method, upper case (`HEAD` included). */
  method: string;
  /** Request path and query as received (`/api/2026-09/shipments?page=2`). */
  url: string;
  /** Fastify route pattern that answered (`/api/2026-09/shipments/:ldv`); undefined for 404/405 answers of no route. */
  route: string | undefined;
  statusCode: number;
  /** `Content-Type` header, undefined when none. */
  contentType: string | undefined;
  /** `x-sandbox-fault` header: set when the answer is a fault injected through the admin prefix (faults.ts). */
  fault: string | undefined;
  /** Body text (UTF-8); undefined when there is none or it was streamed. */
  body: string | undefined;
  /** The OpenAPI document this sandbox serves to this request's host (built once, cached). */
  document: () => unknown;
}

/** A listener of {@link observeResponses}. Must not throw (errors are swallowed so the answer still goes out). */
export type ResponseObserver = (r: ObservedResponse) => void;

const observers = new Set<ResponseObserver>();

/**
 * Calls `fn` for every answer of every sandbox of this process (created
 * before or after this call) until the returned function is called.
 */
export function observeResponses(fn: ResponseObserver): () => void {
  observers.add(fn);
  return () => {
    observers.delete(fn);
  };
}

/**
 * Installs the `onSend` hook that feeds the observers.
 * @param documentFor the served OpenAPI document for a base address (`http://127.0.0.1:4100`).
 */
export function installResponseObservers(app: FastifyInstance, documentFor: (base: string) => unknown): void {
  app.addHook('onSend', (req, reply, payload, done) => {
    if (observers.size > 0) {
      const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : undefined;
      const ct = reply.getHeader('content-type');
      const fault = reply.getHeader('x-sandbox-fault');
      const record: ObservedResponse = {
        method: req.method,
        url: req.url,
        route: req.routeOptions.url,
        statusCode: reply.statusCode,
        contentType: ct === undefined ? undefined : String(ct),
        fault: fault === undefined ? undefined : String(fault),
        body: body === '' ? undefined : body,
        document: () => documentFor(`${req.protocol}://${req.host}`),
      };
      for (const fn of observers) {
        try {
          fn(record);
        } catch {
          // An observer's bug must not change the answer.
        }
      }
    }
    done(null, payload);
  });
}
