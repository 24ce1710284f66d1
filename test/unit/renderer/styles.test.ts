/**
 * The screens' one stylesheet must parse. A block left unclosed by a merge
 * makes the browser swallow every rule after it without a word: the order
 * list lost its scroll container that way (issue 12), and 10,000 rows were
 * laid out as one page.
 */
import fs from 'node:fs';
import path from 'node:path';
import postcss from 'postcss';
import { describe, expect, it } from 'vitest';

const FILE = path.resolve(import.meta.dirname, '..', '..', '..', 'renderer', 'src', 'styles.css');

describe('renderer/src/styles.css', () => {
  const css = fs.readFileSync(FILE, 'utf8');

  it('parses: every block is closed', () => {
    expect(() => postcss.parse(css, { from: FILE })).not.toThrow();
  });

  it('nests no rule in another (the sign of a lost closing brace)', () => {
    const root = postcss.parse(css, { from: FILE });
    const stray: string[] = [];
    root.walkRules((rule) => {
      rule.each((node) => {
        if (node.type === 'rule') stray.push(`line ${node.source?.start?.line}: rule "${node.selector}" nested in "${rule.selector}"`);
      });
    });
    expect(stray).toEqual([]);
  });

  it('keeps the order list a scroll container of its own', () => {
    const root = postcss.parse(css, { from: FILE });
    const decls: Record<string, string> = {};
    root.walkRules('.vscroll', (rule) => rule.walkDecls((d) => void (decls[d.prop] = d.value)));
    expect(decls['overflow-y']).toBe('auto');
  });
});
