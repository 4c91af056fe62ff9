#!/usr/bin/env node
// Import circles: modules that reach each other through their imports, directly or round a
// ring. A circle means neither side can be read, tested or moved without the other; the layers
// of docs/DESIGN.md have none.
//
// - Rust (`src/`, `harness/src/`): a file is a module (`a/mod.rs` is `a`); every path it names
//   (`use crate::…`, `super::…`, `self::…`, a child module's `name::…`, or such a path written
//   out in code) is an edge to the
//   longest module that path names. A module naming what an enclosing module defines is no
//   edge: the enclosing module is its namespace. Inline modules (`mod tests { … }`) belong to
//   their file.
// - JavaScript (`node/src/`): `import … from './x.js'`, `export … from`, `import('./x.js')` and
//   `require('./x')` between the files.
//
// Prints every circle (the strongly connected components of more than one module, with the
// edges that close them) and exits with 1 when there is one. Naming trees (`src`, `harness`,
// `node`, or their source directories as printed) checks those alone; none checks all three.
//
//   node scripts/import-circles.mjs [--quiet] [src] [harness/src] [node/src]

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ARGS = process.argv.slice(2);
const QUIET = ARGS.includes('--quiet');

function walk(dir, extension) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...walk(path, extension));
    else if (name.endsWith(extension)) out.push(path);
  }
  return out;
}

/** Source text with comments, string and character literals blanked (lengths kept). */
function code(text) {
  let out = '';
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    const next = text[i + 1];
    if (c === '/' && next === '/') {
      while (i < n && text[i] !== '\n') { out += ' '; i++; }
    } else if (c === '/' && next === '*') {
      let depth = 0;
      do {
        if (text[i] === '/' && text[i + 1] === '*') { depth++; out += '  '; i += 2; continue; }
        if (text[i] === '*' && text[i + 1] === '/') { depth--; out += '  '; i += 2; continue; }
        out += text[i] === '\n' ? '\n' : ' ';
        i++;
      } while (i < n && depth > 0);
    } else if (c === 'r' && (next === '"' || (next === '#' && /^r#+"/.test(text.slice(i, i + 10)))) && !/\w/.test(text[i - 1] ?? '')) {
      const hashes = text.slice(i + 1).match(/^#*/)[0];
      const close = '"' + hashes;
      const end = text.indexOf(close, i + 2 + hashes.length);
      const stop = end < 0 ? n : end + close.length;
      out += text.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
    } else if (c === '"') {
      let j = i + 1;
      while (j < n && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1).replace(/[^\n]/g, ' ');
      i = j + 1;
    } else if (c === "'" && /^'(\\.|[^\\'])'/.test(text.slice(i, i + 4)) || /^'\\u\{[0-9a-fA-F]+\}'/.test(text.slice(i, i + 12))) {
      const j = text.indexOf("'", i + 2);
      out += ' '.repeat(j + 1 - i);
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** The module path of a Rust file under `root` (`a/b.rs` and `a/b/mod.rs` are `a::b`). */
function rustModule(root, file) {
  const parts = relative(root, file).replace(/\.rs$/, '').split('/');
  if (parts.at(-1) === 'mod') parts.pop();
  if (parts.length === 1 && (parts[0] === 'lib' || parts[0] === 'main')) return [];
  return parts;
}

/** Expands `use` trees (`a::{b, c::{d}}`) into whole paths. */
function expandUse(tree) {
  tree = tree.replace(/\s+/g, '');
  const open = tree.indexOf('{');
  if (open < 0) return [tree.replace(/::\*$/, '').replace(/\bas\w+$/, '')];
  const prefix = tree.slice(0, open);
  const inner = tree.slice(open + 1, tree.lastIndexOf('}'));
  const items = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i <= inner.length; i++) {
    const c = inner[i];
    if (c === '{') depth++;
    else if (c === '}') depth--;
    else if ((c === ',' || i === inner.length) && depth === 0) {
      if (inner.slice(start, i)) items.push(inner.slice(start, i));
      start = i + 1;
    }
  }
  return items.flatMap((item) => expandUse(item === 'self' ? prefix.replace(/::$/, '') : prefix + item));
}

function rustGraph(label, root) {
  const files = walk(root, '.rs');
  const modules = new Map(files.map((f) => [rustModule(root, f).join('::'), f]));
  const edges = new Map();
  const isAncestor = (a, b) => a.length < b.length && a.every((p, i) => p === b[i]);
  for (const file of files) {
    const self = rustModule(root, file);
    const name = self.join('::');
    const text = code(readFileSync(file, 'utf8'));
    const lines = text.split('\n');
    // Inline modules, by brace depth, so that `super` inside `mod tests { … }` is the file.
    const inline = [];
    let depth = 0;
    const targets = new Set();
    lines.forEach((line, index) => {
      const paths = [];
      const useMatch = /^\s*(?:pub(?:\([^)]*\))?\s+)?use\s+([^;]*);?/.exec(line);
      if (useMatch) {
        let tree = useMatch[1];
        let k = index;
        while (!/;/.test(lines[k]) && k + 1 < lines.length) tree += lines[++k];
        paths.push(...expandUse(tree.replace(/;.*$/, '')));
      }
      for (const m of line.matchAll(/\b(crate|super|self)((?:::[A-Za-z_]\w*)+)/g)) paths.push(m[1] + m[2]);
      // A path that starts at a child module (`conn::Conn` in `cdp`), as Rust 2018 reads it.
      for (const m of line.matchAll(/(?<![\w:])([a-z_]\w*)((?:::[A-Za-z_]\w*)+)/g)) {
        const here = [...self, ...inline.map((i) => i.name)];
        if (modules.has([...here, m[1]].join('::'))) paths.push(`self::${m[1]}${m[2]}`);
      }
      for (const path of paths) {
        const parts = path.split('::').filter(Boolean);
        let base;
        if (parts[0] === 'crate') { base = []; parts.shift(); }
        else if (parts[0] === 'super' || parts[0] === 'self') {
          base = [...self, ...inline.map((m) => m.name)];
          while (parts[0] === 'super' || parts[0] === 'self') {
            if (parts.shift() === 'super') base.pop();
          }
        } else continue;
        const full = [...base, ...parts];
        let found = null;
        for (let k = full.length; k >= 0; k--) {
          if (modules.has(full.slice(0, k).join('::'))) { found = full.slice(0, k); break; }
        }
        if (found === null) continue;
        if (found.join('::') === name || isAncestor(found, self)) continue;
        targets.add(found.join('::'));
      }
      for (const c of line) {
        if (c === '{') depth++;
        else if (c === '}') {
          depth--;
          while (inline.length && inline.at(-1).depth > depth) inline.pop();
        }
      }
      const inlineMod = /^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*\{/.exec(line);
      if (inlineMod) inline.push({ name: inlineMod[1], depth });
    });
    edges.set(`${label}${name || '(root)'}`, new Set([...targets].map((t) => `${label}${t || '(root)'}`)));
  }
  return edges;
}

function jsGraph(label, root) {
  const files = walk(root, '.js').concat(walk(root, '.mjs'));
  const edges = new Map();
  for (const file of files) {
    const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    const targets = new Set();
    const specifiers = [
      ...text.matchAll(/\b(?:import|export)\s[^'";]*?from\s*['"](\.{1,2}\/[^'"]+)['"]/g),
      ...text.matchAll(/\bimport\s*\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g),
      ...text.matchAll(/\bimport\s*['"](\.{1,2}\/[^'"]+)['"]/g),
      ...text.matchAll(/\brequire\s*\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g),
    ].map((m) => m[1]);
    for (const specifier of specifiers) {
      let target = resolve(dirname(file), specifier);
      if (!existsSync(target) && existsSync(`${target}.js`)) target = `${target}.js`;
      if (files.includes(target) && target !== file) targets.add(`${label}${relative(root, target)}`);
    }
    edges.set(`${label}${relative(root, file)}`, targets);
  }
  return edges;
}

/** Strongly connected components of more than one node (Tarjan). */
function circles(edges) {
  let index = 0;
  const stack = [];
  const on = new Set();
  const idx = new Map();
  const low = new Map();
  const out = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!edges.has(w)) continue;
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) out.push(component.sort());
    }
  };
  for (const v of [...edges.keys()].sort()) if (!idx.has(v)) visit(v);
  return out;
}

const TREES = [
  ['src/', () => rustGraph('src/ ', join(ROOT, 'src'))],
  ['harness/src/', () => rustGraph('harness/src/ ', join(ROOT, 'harness', 'src'))],
  ['node/src/', () => jsGraph('node/src/', join(ROOT, 'node', 'src'))],
];

/** The tree an argument names: its source directory, with or without the trailing `/` and
 * the `src`, or null. */
function tree(argument) {
  const name = argument.replace(/^\.\//, '').replace(/\/+$/, '');
  return TREES.find(([where]) => [where.slice(0, -1), where.replace(/\/?src\/$/, '')].includes(name)) ?? null;
}

const named = ARGS.filter((a) => !a.startsWith('--'));
const unknown = [...named.filter((a) => tree(a) === null), ...ARGS.filter((a) => a.startsWith('--') && a !== '--quiet')];
if (unknown.length) {
  console.error(`import-circles: unknown ${unknown.map((a) => `'${a}'`).join(', ')}; trees: ${TREES.map(([where]) => where).join(', ')}`);
  console.error('usage: node scripts/import-circles.mjs [--quiet] [src] [harness/src] [node/src]');
  process.exit(2);
}
const chosen = named.length ? TREES.filter((t) => named.some((a) => tree(a) === t)) : TREES;
const graphs = chosen.map(([where, graph]) => [where, graph()]);
let found = 0;
for (const [where, edges] of graphs) {
  const list = circles(edges);
  found += list.length;
  if (!QUIET || list.length) console.log(`import circles in ${where}: ${list.length} (${edges.size} modules)`);
  for (const component of list) {
    const members = new Set(component);
    console.log(`  circle of ${component.length}: ${component.map((c) => c.replace(/^\S+ /, '')).join(', ')}`);
    for (const from of component) {
      const to = [...edges.get(from)].filter((t) => members.has(t));
      console.log(`    ${from.replace(/^\S+ /, '')} → ${to.map((t) => t.replace(/^\S+ /, '')).join(', ')}`);
    }
  }
}
process.exit(found ? 1 : 0);
