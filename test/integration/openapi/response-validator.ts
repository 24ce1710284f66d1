/**
 * Checks sandbox answers against the OpenAPI 3.1 document the sandbox serves,
 * with openapi-backend (routing by method and path, status -> response
 * matching, ajv validators) on ajv's JSON Schema 2020-12 dialect (the OAS 3.1
 * dialect) with ajv-formats (`date-time`, `date`, `uri`, `email`...).
 *
 * Stricter than a plain validator, so drift in either direction shows:
 * - a status the operation does not declare is a problem (the `default`
 *   answer stands for 500 only);
 * - an object schema that lists `properties` and says nothing of others
 *   gets `additionalProperties: false` here (not in the served document,
 *   where clients must ignore new fields: spec, Versioning 2), so a field the
 *   sandbox sends but the document does not name is a problem;
 * - a JSON answer must say `application/json`; a documented 204 has no body;
 * - an injected fault (admin prefix, `x-sandbox-fault`) is checked as an
 *   error envelope only;
 * - a path the document does not have answers 404 `not_found`, a method it
 *   does not have at a documented path 405 `method_not_allowed`, each as the
 *   document's ErrorEnvelope.
 */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { OpenAPIBackend, type Document, type Operation } from 'openapi-backend';

type Json = Record<string, unknown>;

/** One answer to check: method, path relative to `{base_url}` (query allowed), status, content type, body text. */
export interface ResponseToCheck {
  method: string;
  path: string;
  statusCode: number;
  contentType: string | undefined;
  body: string | undefined;
  /**
   * Set for a fault injected through the admin prefix (`x-sandbox-fault`):
   * the test asked for that status on that endpoint, so only the error
   * envelope is checked, not that the operation declares the status.
   */
  injectedFault?: string | undefined;
}

/** Outcome of one check: the operation it was checked against (or `(none)`) and the problems found (empty = valid). */
export interface CheckResult {
  operationId: string;
  problems: string[];
}

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Adds `additionalProperties: false` to closed-looking object schemas (see the
 * module comment), in place. Branches of `allOf` are left open: each sees only
 * its own properties, so closing one would refuse the others' fields.
 */
function closeObjects(node: unknown): void {
  if (Array.isArray(node)) {
    for (const x of node) closeObjects(x);
    return;
  }
  if (!isObj(node)) return;
  if (isObj(node.properties) && !('additionalProperties' in node) && !('unevaluatedProperties' in node)) node.additionalProperties = false;
  for (const [k, v] of Object.entries(node)) {
    if (k === 'properties' && isObj(v)) {
      for (const sub of Object.values(v)) closeObjects(sub);
    } else if (k === 'allOf' || k === 'enum' || k === 'const' || k === 'examples' || k === 'example' || k === 'default') {
      continue;
    } else {
      closeObjects(v);
    }
  }
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** A validator bound to one document. Build with {@link OpenApiResponseValidator.create}. */
export class OpenApiResponseValidator {
  private constructor(
    private readonly api: OpenAPIBackend,
    private readonly errorEnvelope: (v: unknown) => string[],
  ) {}

  /** Compiles the validators of `document` (an OpenAPI 3.1 document as served; not modified). */
  static async create(document: unknown): Promise<OpenApiResponseValidator> {
    const doc = structuredClone(document) as Json;
    closeObjects(doc.components);
    closeObjects(doc.paths);
    const ajvOf = () => {
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      addFormats(ajv);
      return ajv;
    };
    const api = new OpenAPIBackend({
      definition: doc as unknown as Document,
      apiRoot: '/',
      // openapi-backend checks definitions against the OAS 3.0 schema only: the
      // document's own validity (3.1) is checked by conformance/openapi.test.ts
      // and Spectral (`npm run lint:openapi`); `quick` skips that 3.0 check.
      quick: true,
      validate: true,
      customizeAjv: () => ajvOf(),
    });
    await api.init();
    const envelopeSchema = (api.definition as unknown as { components: { schemas: Record<string, unknown> } }).components.schemas.ErrorEnvelope;
    if (!envelopeSchema) throw new Error('The document has no components.schemas.ErrorEnvelope');
    const checkEnvelope = ajvOf().compile(envelopeSchema as object);
    const envelope = (v: unknown) => (checkEnvelope(v) ? [] : (checkEnvelope.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'invalid'}`));
    return new OpenApiResponseValidator(api, envelope);
  }

  /** Checks one answer; never throws for an invalid answer (the problems say what is wrong). */
  check(r: ResponseToCheck): CheckResult {
    const [pathname = '', search = ''] = r.path.split('?');
    const query = Object.fromEntries(new URLSearchParams(search));
    const method = r.method.toLowerCase();
    const problems: string[] = [];
    let body: unknown = null;
    if (r.body !== undefined) {
      if (!/^application\/json\b/i.test(r.contentType ?? '')) problems.push(`Content-Type is ${r.contentType ?? '(none)'}, not application/json`);
      try {
        body = JSON.parse(r.body) as unknown;
      } catch {
        problems.push('the body is not JSON');
        return { operationId: '(unparsed)', problems };
      }
    }
    const op: Operation | undefined = this.api.router.matchOperation({ method, path: pathname, query, headers: {} }) as Operation | undefined;
    if (!op) {
      const pathKnown = METHODS.some((m) => this.api.router.matchOperation({ method: m, path: pathname, query, headers: {} }));
      const expected = pathKnown ? 405 : 404;
      if (r.statusCode !== expected) problems.push(`${r.method} ${pathname} is not in the document, yet answered ${r.statusCode} (expected ${expected})`);
      problems.push(...this.errorEnvelope(body).map((p) => `error envelope: ${p}`));
      return { operationId: pathKnown ? '(method not allowed)' : '(no such path)', problems };
    }
    const operationId = op.operationId ?? `${method} ${op.path}`;
    if (r.injectedFault !== undefined) {
      problems.push(...this.errorEnvelope(body).map((p) => `error envelope: ${p}`));
      return { operationId: `${operationId} (injected ${r.injectedFault})`, problems };
    }
    const responses = (op.responses ?? {}) as Record<string, Json>;
    const declared = responses[String(r.statusCode)] ?? responses[`${Math.floor(r.statusCode / 100)}XX`] ?? (r.statusCode === 500 ? responses.default : undefined);
    if (!declared) {
      problems.push(`status ${r.statusCode} is not declared for ${operationId}`);
      return { operationId, problems };
    }
    const hasContent = isObj(declared.content) && Object.keys(declared.content).length > 0;
    if (!hasContent) {
      if (r.body !== undefined) problems.push(`status ${r.statusCode} of ${operationId} is declared without a body, yet one was sent`);
      return { operationId, problems };
    }
    if (r.body === undefined) {
      problems.push(`status ${r.statusCode} of ${operationId} declares a body, none was sent`);
      return { operationId, problems };
    }
    const result = this.api.validator.validateResponse(body, op, r.statusCode);
    if (!result.valid) {
      for (const e of result.errors ?? []) {
        const extra = e.keyword === 'additionalProperties' ? ` "${String((e.params as { additionalProperty?: string }).additionalProperty)}" (not in the document)` : '';
        problems.push(`${e.instancePath || '/'} ${e.message ?? 'invalid'}${extra}`);
      }
    }
    return { operationId, problems };
  }
}
