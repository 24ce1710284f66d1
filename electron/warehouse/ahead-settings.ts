/**
 * The supervisor's settings of labels ahead (issue 43 item 3), read and written by the page's owner connection
 * in `ahead_settings` (schema 8, electron/core/warehouse/schema-ahead.ts): on or off for the warehouse, which
 * rules (null: every rule that ships by itself; else the rule names chosen), how far ahead (null: today's
 * imported orders; else the last N hours), the headroom (label purchases a minute left to the packers) and
 * whether the batch printer stacks face down. Also what the page offers to choose from: the rules of the
 * shared rules document (`shared` key `setting:rules.document`, the benches' own) and the live benches.
 */
import type { Pool } from 'pg';
import { z } from 'zod';

import { OFFLINE_AFTER_S } from './floor';

/** The settings as the API gives and takes them: the core's own shape (electron/core/common/labels-ahead.ts). */
export type { AheadSettings } from '../core/common/labels-ahead';
import type { AheadSettings } from '../core/common/labels-ahead';

/** The body of `PUT /api/ahead/settings`: every field, each refused with a sentence naming it. */
const AheadSettingsBody = z
  .object({
    enabled: z.boolean({ error: 'enabled must be true or false' }),
    rules: z
      .array(z.string({ error: 'rules must be rule names' }).trim().min(1, { error: 'rules: a rule name is empty' }).max(100, { error: 'rules: a rule name is at most 100 characters' }), {
        error: 'rules must be null (every rule that ships by itself) or a list of rule names',
      })
      .min(1, { error: 'rules: choose at least one rule, or null for every rule that ships by itself' })
      .max(200, { error: 'rules: at most 200' })
      .nullable(),
    horizonHours: z
      .number({ error: 'horizonHours must be null (today’s orders) or a whole number of hours' })
      .int({ error: 'horizonHours must be a whole number of hours' })
      .min(1, { error: 'horizonHours must be between 1 and 720 hours' })
      .max(720, { error: 'horizonHours must be between 1 and 720 hours' })
      .nullable(),
    headroom: z
      .number({ error: 'headroom must be a whole number of labels a minute' })
      .int({ error: 'headroom must be a whole number of labels a minute' })
      .min(0, { error: 'headroom must be between 0 and 29 labels a minute (of the account’s 30)' })
      .max(29, { error: 'headroom must be between 0 and 29 labels a minute (of the account’s 30)' }),
    faceDown: z.boolean({ error: 'faceDown must be true or false' }),
  })
  .strict();

/** A refusal of a settings body: the field named and why. */
export interface SettingsRefusal {
  field: string;
  message: string;
}

/** A rule of the shared rules document, as the page offers it. */
export interface RuleChoice {
  name: string;
  enabled: boolean;
  shipByItself: boolean;
}

/** A bench as the page offers it for a batch print. */
export interface BenchChoice {
  id: string;
  name: string;
  online: boolean;
}

/** Reads the settings. @throws the database's error */
export async function readAheadSettings(db: Pool): Promise<AheadSettings> {
  const res = await db.query<{ enabled: boolean; rules: string[] | null; horizon_hours: number | null; headroom: number; face_down: boolean }>(
    'SELECT enabled, rules, horizon_hours, headroom, face_down FROM ahead_settings',
  );
  const r = res.rows[0];
  if (!r) return { enabled: false, rules: null, horizonHours: null, headroom: 5, faceDown: false };
  return { enabled: r.enabled, rules: r.rules, horizonHours: r.horizon_hours, headroom: r.headroom, faceDown: r.face_down };
}

/** The rules of the shared rules document (empty when none is shared). @throws the database's error */
export async function readRuleChoices(db: Pool): Promise<RuleChoice[]> {
  const res = await db.query<{ value: unknown }>(`SELECT value FROM shared WHERE key = 'setting:rules.document'`);
  const doc = res.rows[0]?.value as { rules?: unknown } | null | undefined;
  const rules = Array.isArray(doc?.rules) ? (doc.rules as unknown[]) : [];
  return rules.flatMap((r) => {
    const rule = r as { name?: unknown; enabled?: unknown; then?: { shipByItself?: unknown } };
    return typeof rule.name === 'string' ? [{ name: rule.name, enabled: rule.enabled !== false, shipByItself: rule.then?.shipByItself === true }] : [];
  });
}

/** Every bench, live ones first, each by name. @throws the database's error */
export async function readBenchChoices(db: Pool): Promise<BenchChoice[]> {
  const res = await db.query<BenchChoice>(
    `SELECT id, name, heartbeat_at > now() - make_interval(secs => $1) AS online FROM benches ORDER BY 3 DESC, name, id`,
    [OFFLINE_AFTER_S],
  );
  return res.rows;
}

/**
 * Checks and writes the settings.
 * @returns the settings written, or the refusal naming its field (an unknown rule name too)
 * @throws the database's error
 */
export async function writeAheadSettings(db: Pool, body: unknown): Promise<{ ok: true; settings: AheadSettings } | { ok: false; refusal: SettingsRefusal }> {
  const parsed = AheadSettingsBody.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.length ? String(issue.path[0]) : issue.code === 'unrecognized_keys' ? String((issue as { keys?: string[] }).keys?.[0] ?? '') : '';
    const message = issue.code === 'unrecognized_keys' ? `${field} is not a setting of labels ahead` : field && !issue.message.startsWith(field) ? `${field}: ${issue.message}` : issue.message;
    return { ok: false, refusal: { field: field || 'body', message: field ? message : 'Give the settings as {"enabled", "rules", "horizonHours", "headroom", "faceDown"}' } };
  }
  const s = parsed.data;
  if (s.rules) {
    const known = new Set((await readRuleChoices(db)).map((r) => r.name));
    const unknown = s.rules.find((n) => !known.has(n));
    if (unknown !== undefined) return { ok: false, refusal: { field: 'rules', message: `rules: no rule is named “${unknown}” in the warehouse’s rules` } };
  }
  await db.query('UPDATE ahead_settings SET enabled = $1, rules = $2, horizon_hours = $3, headroom = $4, face_down = $5, changed_at = now()', [
    s.enabled,
    s.rules ? [...new Set(s.rules)] : null,
    s.horizonHours,
    s.headroom,
    s.faceDown,
  ]);
  return { ok: true, settings: await readAheadSettings(db) };
}
