// Merges translations into apps/web/src/i18n without clobbering keys others added meanwhile:
// node scripts/i18n-merge.mjs strings.json, where strings.json is
// { "en": { "iot": { "device": "Device" } }, "zh": { ... }, "tw": { ... } } (nested like the files).
//
// The texts are split over files: <lang>.json (the base, loaded by sign-in and the console shell)
// and features/<area>/<lang>.json (loaded with that area's screens). Each text goes to the file
// that already holds the longest part of its key, a feature file winning a tie with the base:
// iot.* goes to features/iot, adminExtra.menuSwitch.* stays in the base (the navbar uses it), and
// a new top-level section goes to the base (move it to an area's file by hand if only that area's
// screens use it; keys-used.test.ts tells when a key sits where its user cannot see it).
import fs from 'node:fs';
import path from 'node:path';

const source = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const dir = path.join(path.dirname(new URL(import.meta.url).pathname), '../apps/web/src/i18n');
const areas = fs.readdirSync(path.join(dir, 'features')).sort();

const isTree = (value) => Boolean(value) && typeof value === 'object' && !Array.isArray(value);

/** Every text of a nested patch, as [key parts, text]. */
function leaves(tree, prefix = []) {
  return Object.entries(tree).flatMap(([key, value]) =>
    isTree(value) ? leaves(value, [...prefix, key]) : [[[...prefix, key], value]],
  );
}

/** How many leading parts of the key the tree already holds. */
function depth(tree, parts) {
  let node = tree;
  let held = 0;
  for (const part of parts) {
    if (!isTree(node) || !(part in node)) break;
    node = node[part];
    held += 1;
  }
  return held;
}

function set(tree, parts, value) {
  const last = parts.at(-1);
  let node = tree;
  for (const part of parts.slice(0, -1)) node = isTree(node[part]) ? node[part] : (node[part] = {});
  node[last] = value;
}

const written = new Set();
for (const lang of ['en', 'zh', 'tw']) {
  if (!source[lang]) throw new Error(`${process.argv[2]} has no "${lang}" section`);
  // The base first, so that any feature file holding as much of a key wins over it.
  const files = [`${lang}.json`, ...areas.map((area) => `features/${area}/${lang}.json`)];
  const trees = files.map((file) => JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')));
  const changed = new Set();
  for (const [parts, text] of leaves(source[lang])) {
    let best = 0;
    trees.forEach((tree, i) => {
      if (depth(tree, parts) >= depth(trees[best], parts)) best = i;
    });
    set(trees[best], parts, text);
    changed.add(best);
  }
  for (const i of changed) {
    fs.writeFileSync(path.join(dir, files[i]), `${JSON.stringify(trees[i], null, 2)}\n`);
    written.add(files[i].replace(`${lang}.json`, '<lang>.json'));
  }
}
console.log('merged', Object.keys(source.en).join(', '), 'into', [...written].join(', '));
