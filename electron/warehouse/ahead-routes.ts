/**
 * The page's API of labels ahead, batch prints and the day's close (issue 43 items 3–5), registered on the
 * page's server (./server.ts; every route behind its session check):
 *
 * - `GET /api/ahead`: {@link AheadAnswer}: the settings, the rules and benches to choose from, the labels ahead
 *   waiting (per SKU and shop), the last batches and the last close.
 * - `PUT /api/ahead/settings` `{enabled, rules, horizonHours, headroom, faceDown}`: 200 the settings; 400
 *   `{error: {code: 'invalid_input', field, message}}` naming the field.
 * - `POST /api/batches` `{benchId, selection: {kind: single|sku|shop|all, value?}}`: 201 the batch; 400 naming the
 *   field; 409 `bench_offline`; 404 `nothing_to_print`.
 * - `GET /api/batches/:id/pick-list.pdf?lang=it|en`: the batch's pick list (./pick-list.ts).
 * - `POST /api/day/close?lang=it|en`: closes the day for the warehouse (./day-close.ts): 200 `{close, said}` (the
 *   close in the language's sentences); 409 `no_platform` without the platform account, `closing` during another.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Pool } from 'pg';
import { readAheadSettings, readBenchChoices, readRuleChoices, writeAheadSettings } from './ahead-settings';
import type { AheadAnswer } from './ahead-types';
import { batchPickRows, createBatch, parseSelection, readBatches } from './batch';
import { closeDay, readClose } from './day-close';
import { closeSaid } from './page/ahead-words';
import { pickListPdf } from './pick-list';
import type { WarehousePlatform } from './platform';
import type { ReportLanguage } from './report';

/** What the routes need of the server. */
export interface AheadRouteOptions {
  db: Pool;
  platform: WarehousePlatform | null;
  /** The signed-in supervisor's name of a request (the page's session). */
  supervisorOf: (req: FastifyRequest) => string | null;
  /** The page's language of a request without `lang` (its Accept-Language). */
  languageOf: (req: FastifyRequest) => ReportLanguage;
  /** Waits out a 429's Retry-After at the close (tests); default setTimeout. */
  sleep?: (ms: number) => Promise<void>;
}

const send = (reply: FastifyReply, status: number, body: unknown) => reply.code(status).header('cache-control', 'no-store').send(body);
const refuse = (reply: FastifyReply, status: number, code: string, message: string, field?: string) => send(reply, status, { error: { code, message, ...(field ? { field } : {}) } });

/** The labels ahead waiting (state bought) of unshipped orders, per SKU and per shop. */
async function waitingLabels(db: Pool): Promise<AheadAnswer['waiting']> {
  const res = await db.query<{ kind: string; value: string | null; n: number }>(
    `WITH w AS (SELECT la.sku, o.value FROM labels_ahead la JOIN orders o ON o.order_key = la.order_key WHERE la.state = 'bought' AND o.shipped_at IS NULL)
     SELECT 'total' AS kind, NULL AS value, count(*)::int AS n FROM w
     UNION ALL SELECT 'single', NULL, count(*)::int FROM w
       WHERE jsonb_array_length(coalesce(value->'items', '[]'::jsonb)) = 1 AND coalesce((value->'items'->0->>'quantity')::numeric, 1) = 1
     UNION ALL SELECT 'sku', sku, count(*)::int FROM w WHERE sku IS NOT NULL GROUP BY sku
     UNION ALL SELECT 'shop', value->>'shop', count(*)::int FROM w WHERE value->>'shop' IS NOT NULL GROUP BY value->>'shop'`,
  );
  const of = (kind: string) => res.rows.filter((r) => r.kind === kind).map((r) => ({ value: r.value ?? '', n: r.n })).sort((a, b) => a.value.localeCompare(b.value));
  return { total: res.rows.find((r) => r.kind === 'total')?.n ?? 0, single: res.rows.find((r) => r.kind === 'single')?.n ?? 0, skus: of('sku'), shops: of('shop') };
}

/** Registers the routes (see the module doc). */
export function registerAheadRoutes(app: FastifyInstance, options: AheadRouteOptions): void {
  const { db } = options;
  const languageOf = (req: FastifyRequest<{ Querystring: { lang?: string } }>): ReportLanguage =>
    req.query.lang === 'it' || req.query.lang === 'en' ? req.query.lang : options.languageOf(req);

  app.get('/api/ahead', async (_req, reply) => {
    const answer: AheadAnswer = {
      settings: await readAheadSettings(db),
      rules: await readRuleChoices(db),
      benches: await readBenchChoices(db),
      batches: await readBatches(db),
      waiting: await waitingLabels(db),
      lastClose: await readClose(db),
      platformGiven: options.platform !== null,
    };
    return send(reply, 200, answer);
  });

  app.put('/api/ahead/settings', async (req, reply) => {
    const out = await writeAheadSettings(db, req.body ?? null);
    if (!out.ok) return refuse(reply, 400, 'invalid_input', out.refusal.message, out.refusal.field);
    return send(reply, 200, { settings: out.settings });
  });

  app.post<{ Body: { benchId?: unknown; selection?: unknown } | null }>('/api/batches', async (req, reply) => {
    const benchId = req.body?.benchId;
    if (typeof benchId !== 'string' || benchId === '') return refuse(reply, 400, 'invalid_input', 'benchId: choose the bench that prints the batch', 'benchId');
    const selection = parseSelection(req.body);
    if ('code' in selection) return refuse(reply, 400, selection.code, selection.message, 'field' in selection ? selection.field : undefined);
    const out = await createBatch(db, benchId, selection);
    if (!out.ok) return refuse(reply, out.refusal.code === 'bench_offline' ? 409 : out.refusal.code === 'nothing_to_print' ? 404 : 400, out.refusal.code, out.refusal.message);
    return send(reply, 201, { batch: out.batch });
  });

  app.get<{ Params: { id: string }; Querystring: { lang?: string } }>('/api/batches/:id/pick-list.pdf', async (req, reply) => {
    const id = Number(req.params.id);
    if (!Number.isSafeInteger(id) || id <= 0) return refuse(reply, 400, 'invalid_input', 'The batch is a number');
    const found = await batchPickRows(db, id);
    if (!found) return refuse(reply, 404, 'not_found', `No batch ${id}`);
    const pdf = await pickListPdf(found.batch, found.rows, languageOf(req));
    return reply
      .type('application/pdf')
      .header('cache-control', 'no-store')
      .header('content-disposition', `attachment; filename="pick-list-${id}.pdf"`)
      .send(Buffer.from(pdf));
  });

  app.post<{ Querystring: { lang?: string } }>('/api/day/close', async (req, reply) => {
    if (!options.platform) {
      return refuse(reply, 409, 'no_platform', 'The day can’t be closed here: the warehouse program was started without the platform account (--platform-url, --client-id, STATION_CLIENT_SECRET)');
    }
    const out = await closeDay({ db, platform: options.platform, packer: options.supervisorOf(req), ...(options.sleep ? { sleep: options.sleep } : {}) });
    if (!out.ok) return refuse(reply, 409, out.refusal.code, out.refusal.message);
    return send(reply, 200, { close: out.close, said: closeSaid(out.close, languageOf(req)) });
  });
}
