// `npm run lint:cycles`: no circle of imports among the station's modules, whatever kind of import closes
// it, a type-only one included (a circle of types still ties its files together: none of them can be
// layered below the others). dpdm reads the files and finds the circles (its parser and search, as its
// command line does, without `-T`, which would drop type imports); it sees `import` and `import type`
// declarations, `export … from`, `import()` calls and `require`, but not a type written `import('./x').T`,
// so printing/types.ts → transports/os-spooler.ts → transports/transport.ts → types.ts passed unseen
// (issue 45). Those type imports are read here with TypeScript's parser and added to dpdm's tree first.
// Exit 1 when a circle is found, listing each. Usage: node build/check-cycles.mjs [glob…] (relative to
// the working directory; default: electron/**/*.ts, renderer/src/**/*.{ts,tsx}, shared/**/*.ts).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { appendSuffix, defaultOptions, parseCircular, parseDependencyTree, prettyCircular } from 'dpdm';
import ts from 'typescript';

const globs = process.argv.length > 2 ? process.argv.slice(2) : ['electron/**/*.ts', 'renderer/src/**/*.{ts,tsx}', 'shared/**/*.ts'];
const cwd = process.cwd();
const options = { context: cwd, cwd, extensions: defaultOptions.extensions.filter(Boolean), js: defaultOptions.js, transform: false, skipDynamicImports: false };

/** Specifiers of the `import('…')` types of a TypeScript source (`import('./x').T`, `typeof import('./x')`). */
function importTypeSpecifiers(code, fileName) {
  const source = ts.createSourceFile(fileName, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const out = [];
  const visit = (node) => {
    if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) out.push(node.argument.literal.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

const tree = await parseDependencyTree(globs, options);
const pending = Object.keys(tree);
while (pending.length) {
  const id = pending.pop();
  const deps = tree[id];
  if (!deps || !/\.tsx?$/.test(id)) continue;
  const file = path.resolve(cwd, id);
  for (const request of importTypeSpecifiers(await readFile(file, 'utf8'), file)) {
    // Only a relative one can lead back into the project (the repository has no path aliases).
    if (!request.startsWith('.')) continue;
    const found = await appendSuffix(path.resolve(path.dirname(file), request), ['', ...options.extensions]);
    const target = found ? path.relative(cwd, found) : null;
    if (deps.some((d) => d.id === target)) continue;
    deps.push({ issuer: id, request, kind: 'StaticImport', id: target });
    if (target && !(target in tree)) {
      // A file reached only through such a type: dpdm reads it, and what it imports, too.
      for (const [k, v] of Object.entries(await parseDependencyTree([target], options))) {
        if (k in tree) continue;
        tree[k] = v;
        pending.push(k);
      }
    }
  }
}

// dpdm reads files in parallel, so the tree's order (and with it where a circle is said to start) changed from
// run to run: the tree is searched in sorted order, and each circle is said from its first file by name.
const sorted = Object.fromEntries(Object.keys(tree).sort().map((k) => [k, tree[k]]));
const circulars = parseCircular(sorted, false).map((c) => {
  const first = c.indexOf([...c].sort()[0]);
  return [...c.slice(first), ...c.slice(0, first)];
});
if (circulars.length) {
  console.error(`lint:cycles: ${circulars.length} circle${circulars.length > 1 ? 's' : ''} of imports (type-only imports count):\n${prettyCircular(circulars, '  ')}`);
  process.exit(1);
}
console.log(`lint:cycles: no circle of imports among ${Object.values(tree).filter(Boolean).length} files (type-only imports counted)`);
