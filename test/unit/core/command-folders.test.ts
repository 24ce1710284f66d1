/**
 * Issue 34 item 4: a command's prefix says where its handler lives. The prefix is the name of the
 * core folder whose handlers implement it, or one of the resources that folder owns, listed here
 * (a folder with several resources, like printing's printers, print jobs and labels, names each);
 * a new prefix must be added to its folder's row, and its handler found in that folder.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { commands } from '../../../shared/contract/commands';

/** Core folder -> the command prefixes besides its own name that its handlers implement. */
const RESOURCES: Record<string, readonly string[]> = {
  account: ['app', 'credit'],
  shipping: ['carriers', 'warehouses', 'shipments', 'deliveryPoints', 'customs'],
  printing: ['printers', 'printJobs', 'labels'],
  packing: ['verify', 'items', 'boxes'],
};

const CORE = path.resolve(__dirname, '../../../electron/core');
const filesOf = (dir: string): string[] =>
  readdirSync(dir).flatMap((n) => {
    const p = path.join(dir, n);
    return statSync(p).isDirectory() ? filesOf(p) : p.endsWith('.ts') ? [p] : [];
  });

describe('command prefixes and core folders', () => {
  it("every command's prefix is its folder's name or a resource of that folder, and its handler is there", () => {
    const folders = readdirSync(CORE).filter((n) => statSync(path.join(CORE, n)).isDirectory());
    const folderOf = (prefix: string): string | undefined => (folders.includes(prefix) ? prefix : Object.keys(RESOURCES).find((f) => RESOURCES[f]!.includes(prefix)));
    const source = new Map(folders.map((f) => [f, filesOf(path.join(CORE, f)).map((file) => readFileSync(file, 'utf8')).join('\n')]));
    const wrong: string[] = [];
    for (const name of Object.keys(commands)) {
      const prefix = name.slice(0, name.indexOf('.'));
      const folder = folderOf(prefix);
      if (folder === undefined) wrong.push(`${name}: no folder named ${prefix}, and no folder lists it`);
      // The handler map's key, as each domain writes it (`'scan.resolve': async …`).
      else if (!source.get(folder)!.includes(`'${name}': `)) wrong.push(`${name}: no handler in electron/core/${folder}/`);
    }
    expect(wrong).toEqual([]);
  });
});
