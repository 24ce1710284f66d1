/**
 * Setup file of every integration test file (vitest.config.ts): each answer
 * any sandbox of this test process sends under the version prefix is checked
 * against the OpenAPI document that same sandbox serves
 * (`GET {base_url}/openapi.json`), with response-validator.ts. Problems
 * fail the test during which the answer was sent (checked in `afterEach`;
 * answers sent in `beforeAll`/`afterAll` are checked in `afterAll`). The
 * number of answers checked is written for global-setup.ts, which prints the
 * total at the end of the run.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, expect, inject } from 'vitest';
import { API_PREFIX, observeResponses, type ObservedResponse } from '../../../electron/sandbox/index';
import { OpenApiResponseValidator } from './response-validator';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Folder where each test file writes its tally (global-setup.ts). */
    openapiTallyDir: string;
  }
}

const pending: ObservedResponse[] = [];
const tally = { validated: 0, byOperation: {} as Record<string, number>, problems: [] as string[] };

observeResponses((r) => {
  // HEAD answers carry no body on the wire; the GET they mirror is checked.
  if (r.method !== 'HEAD' && (r.url === API_PREFIX || r.url.startsWith(API_PREFIX + '/') || r.url.startsWith(API_PREFIX + '?'))) pending.push(r);
});

/** Validators by document text (servers and token URL aside): sandboxes of one build share one. */
const validators = new Map<string, Promise<OpenApiResponseValidator>>();
const byDocument = new WeakMap<object, Promise<OpenApiResponseValidator>>();

function validatorFor(doc: unknown): Promise<OpenApiResponseValidator> {
  const known = byDocument.get(doc as object);
  if (known) return known;
  const { servers: _s, components, ...rest } = doc as { servers?: unknown; components?: { securitySchemes?: unknown } };
  const { securitySchemes: _ss, ...comps } = components ?? {};
  const key = JSON.stringify({ ...rest, components: comps });
  let v = validators.get(key);
  if (!v) {
    v = OpenApiResponseValidator.create(doc);
    validators.set(key, v);
  }
  byDocument.set(doc as object, v);
  return v;
}

/** Checks the answers collected so far; returns the problems found. */
async function drain(): Promise<string[]> {
  const batch = pending.splice(0, pending.length);
  const problems: string[] = [];
  for (const r of batch) {
    const v = await validatorFor(r.document());
    const res = v.check({ method: r.method, path: r.url.slice(API_PREFIX.length) || '/', statusCode: r.statusCode, contentType: r.contentType, body: r.body, injectedFault: r.fault });
    tally.validated += 1;
    tally.byOperation[res.operationId] = (tally.byOperation[res.operationId] ?? 0) + 1;
    if (res.problems.length > 0) {
      const excerpt = r.body === undefined ? '' : ` body: ${r.body.slice(0, 300)}`;
      problems.push(`${r.method} ${r.url} -> ${r.statusCode} (${res.operationId}): ${res.problems.join('; ')}${excerpt}`);
    }
  }
  tally.problems.push(...problems);
  return problems;
}

/** Answers checked so far in this test file (for the hook's own test). */
export function checkedSoFar(): number {
  return tally.validated + pending.length;
}

afterEach(async () => {
  const problems = await drain();
  if (problems.length > 0) throw new Error(`Sandbox answers that do not match the served OpenAPI document:\n${problems.join('\n')}`);
});

afterAll(async () => {
  const problems = await drain();
  const dir = inject('openapiTallyDir');
  if (dir) {
    const file = path.join(dir, `${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
    fs.writeFileSync(file, JSON.stringify({ file: expect.getState().testPath ?? '', ...tally }));
  }
  if (problems.length > 0) throw new Error(`Sandbox answers that do not match the served OpenAPI document:\n${problems.join('\n')}`);
});
