/**
 * The rules file as text (issue 24 item 2): JSON in, checked with the zod
 * schema of shared/contract/rules.ts, and JSON out (two-space indented, the
 * fields as stored, unknown fields kept).
 */
import { RulesFile } from '../../../shared/contract/rules';
import { StationError } from '../../../shared/contract/errors';

/** Longest rules file read, in characters (a file of 200 full rules is well under 1 MiB). */
const RULES_FILE_MAX_CHARS = 2 * 1024 * 1024;

/**
 * Parses and checks a rules file.
 * @param content the file's text (UTF-8, a BOM is allowed)
 * @returns the rules in order, defaults applied (`enabled: true`, `when: {}`)
 * @throws StationError `invalid_input`: not JSON (details `content`), or the first problem
 *   found, naming the rule's place (1-based, with its name when it has one) and the field,
 *   details keyed by the path (`rules.1.then.rate`). Nothing is changed by a refusal.
 */
export function parseRulesFile(content: string): RulesFile {
  if (content.length > RULES_FILE_MAX_CHARS) {
    throw new StationError('invalid_input', `The rules file is too large (max ${RULES_FILE_MAX_CHARS} characters)`, { content: ['File too large'] });
  }
  let raw: unknown;
  try {
    raw = JSON.parse(content.replace(/^\uFEFF/, ''));
  } catch {
    // The parser's message quotes the text: a followed path could name any file, so none of it is echoed.
    throw new StationError('invalid_input', 'The rules file is not JSON (check it with a JSON validator). The rules in use were kept.', { content: ['Not JSON'] });
  }
  const res = RulesFile.safeParse(raw);
  if (res.success) return res.data;
  const details: Record<string, string[]> = {};
  for (const issue of res.error.issues) (details[issue.path.join('.') || 'content'] ??= []).push(issue.message);
  const first = res.error.issues[0];
  const path = first?.path ?? [];
  let where = path.length ? `field ${path.join('.')}` : 'the file';
  if (path[0] === 'rules' && typeof path[1] === 'number') {
    const index = path[1];
    const name = (raw as { rules?: Array<{ name?: unknown }> }).rules?.[index]?.name;
    const field = path.slice(2).join('.') || 'the rule';
    where = `rule ${index + 1}${typeof name === 'string' && name.trim() ? ` '${name.trim()}'` : ''}, field ${field}`;
  }
  throw new StationError('invalid_input', `The rules file was refused (${where}): ${first?.message ?? 'invalid'}. The rules in use were kept.`, details);
}

/** The rules as a file (`{version: 1, rules}`), JSON indented by two spaces and ending with a newline. */
export function rulesFileText(file: RulesFile): string {
  return `${JSON.stringify(file, null, 2)}\n`;
}
