import type { Lang } from '@shuili/contract';

/** A translation file: sections of texts. */
export type Tree = { [key: string]: string | Tree };

// Every translation file, read by Vite at test time (the translation tests use this module): the
// base file (./<lang>.json) and each feature area's (./features/<area>/<lang>.json), found by
// pattern so that a file added later is checked too.
const files = import.meta.glob<Tree>(['./*.json', './features/*/*.json'], {
  import: 'default',
  eager: true,
});

/** The files by part ('base' or the feature area) and language. */
export const translationFiles: Record<string, Partial<Record<Lang, Tree>>> = {};
for (const [file, tree] of Object.entries(files)) {
  const [, area, lang] = /^\.\/(?:features\/([^/]+)\/)?([^/]+)\.json$/.exec(file) ?? [];
  (translationFiles[area ?? 'base'] ??= {})[lang as Lang] = tree;
}

/** Merges files as i18n.ts does at run time (addResourceBundle, deep): later files win. */
export function mergeTrees(...trees: (Tree | undefined)[]): Tree {
  const out: Tree = {};
  for (const tree of trees) {
    for (const [key, value] of Object.entries(tree ?? {})) {
      const current = out[key];
      out[key] =
        typeof value === 'object' && typeof current === 'object'
          ? mergeTrees(current, value)
          : value;
    }
  }
  return out;
}

/** A language's whole catalogue: the base file and every feature area's. */
export function mergedCatalogue(lang: Lang): Tree {
  return mergeTrees(...Object.values(translationFiles).map((files) => files[lang]));
}
