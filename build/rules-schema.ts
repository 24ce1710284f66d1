/**
 * Generates the JSON Schema of the rules file, shared/schemas/rules.schema.json,
 * from its zod schema (shared/contract/rules.ts `RulesFile`, JSON Schema
 * 2020-12, input side: what a file may hold before the station trims and
 * upper-cases it). What JSON Schema says beyond zod's own checks (blanks
 * around values, "contract or rate, not both", descriptions) is written
 * next to each check with `.meta()`, so the zod file stays the one source.
 * test/unit/build/rules-schema.test.ts fails when the committed file differs.
 *
 * Usage: node --import tsx build/rules-schema.ts        (writes the file)
 *        node --import tsx build/rules-schema.ts --check (exit 1 when it differs)
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { RulesFile } from '../shared/contract/rules';

/** Where the generated schema is committed, relative to the repository root. */
export const RULES_SCHEMA_PATH = 'shared/schemas/rules.schema.json';

/**
 * The rules file's JSON Schema as the text committed in {@link RULES_SCHEMA_PATH}:
 * 2-space indented JSON and a final newline, `$schema`, `$id`, `title`, `description` first.
 */
export function rulesSchemaText(): string {
  const { $schema, $id, title, description, ...rest } = z.toJSONSchema(RulesFile, { io: 'input', target: 'draft-2020-12', unrepresentable: 'throw' });
  return `${JSON.stringify({ $schema, $id, title, description, ...rest }, null, 2)}\n`;
}

function main(): void {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const file = path.join(root, RULES_SCHEMA_PATH);
  const text = rulesSchemaText();
  if (process.argv.includes('--check')) {
    if (fs.readFileSync(file, 'utf8') === text) return;
    console.error(`${RULES_SCHEMA_PATH} differs from shared/contract/rules.ts: run node --import tsx build/rules-schema.ts`);
    process.exit(1);
  }
  fs.writeFileSync(file, text);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
