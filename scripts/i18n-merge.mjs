// Merges translations into apps/web/src/i18n/{en,zh,tw}.json without clobbering keys others added
// meanwhile: node scripts/i18n-merge.mjs strings.json, where strings.json is
// { "en": { "iot": { "device": "Device" } }, "zh": { ... }, "tw": { ... } } (nested like the files).
import fs from 'node:fs';
import path from 'node:path';

const source = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const dir = path.join(path.dirname(new URL(import.meta.url).pathname), '../apps/web/src/i18n');

function merge(target, patch) {
  for (const [key, value] of Object.entries(patch)) {
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      target[key] = merge(target[key] && typeof target[key] === 'object' ? target[key] : {}, value);
    } else target[key] = value;
  }
  return target;
}

for (const lang of ['en', 'zh', 'tw']) {
  if (!source[lang]) throw new Error(`${process.argv[2]} has no "${lang}" section`);
  const file = path.join(dir, `${lang}.json`);
  const merged = merge(JSON.parse(fs.readFileSync(file, 'utf8')), source[lang]);
  fs.writeFileSync(file, `${JSON.stringify(merged, null, 2)}\n`);
}
console.log('merged', Object.keys(source.en).join(', '));
