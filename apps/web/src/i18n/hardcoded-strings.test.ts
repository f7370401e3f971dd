import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Every component's source, read by Vite at test time (tests excluded by the pattern).
const components = import.meta.glob<string>('../**/*.tsx', {
  query: '?raw',
  import: 'default',
  eager: true,
});

/** Props whose text a person reads (or a screen reader says). */
const READ_PROPS = new Set([
  'title',
  'subTitle',
  'placeholder',
  'label',
  'alt',
  'aria-label',
  'aria-description',
  'tooltip',
  'content',
  'okText',
  'cancelText',
  'description',
  'extra',
  'addonBefore',
  'addonAfter',
  'notFoundContent',
]);

/** Words: letters of any script. Numbers, punctuation and symbols alone need no translation. */
const WORDS = /\p{L}{2,}/u;

/** A translation key rather than text: dotted identifiers such as 'route.workbench'. */
const I18N_KEY = /^[a-zA-Z][\w-]*(\.[\w-]+)+$/;

/**
 * Literal text no language would translate: product codes and the like. Every entry says why.
 */
const ALLOWED = new Set<string>([]);

interface Finding {
  file: string;
  line: number;
  text: string;
}

function findHardCoded(file: string, text: string): Finding[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: Finding[] = [];
  const report = (node: ts.Node, value: string) => {
    const trimmed = value.trim();
    if (!WORDS.test(trimmed) || ALLOWED.has(trimmed)) return;
    const { line } = source.getLineAndCharacterOfPosition(node.getStart());
    found.push({ file, line: line + 1, text: trimmed });
  };
  const literalText = (node: ts.Node | undefined): string | undefined => {
    if (!node) return undefined;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
    if (ts.isJsxExpression(node)) return literalText(node.expression);
    return undefined;
  };
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node)) report(node, node.text);
    if (ts.isJsxAttribute(node) && READ_PROPS.has(node.name.getText(source))) {
      const value = literalText(node.initializer);
      if (value !== undefined) report(node, value);
    }
    // Options and columns: { label: 'Text' }; i18n keys ('route.home') are fine there.
    if (
      ts.isPropertyAssignment(node) &&
      READ_PROPS.has(node.name.getText(source).replace(/['"]/g, ''))
    ) {
      const value = literalText(node.initializer);
      if (value !== undefined && !I18N_KEY.test(value)) report(node, value);
    }
    // `{'Some text'}` as a JSX child.
    if (ts.isJsxExpression(node) && ts.isJsxElement(node.parent)) {
      const value = literalText(node.expression);
      if (value !== undefined) report(node, value);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('no hard-coded text in components', () => {
  it('finds text in JSX and in read props, so the check itself works', () => {
    const probe = `export const A = () => <div title="Hello there" aria-label={'Close it'}>Save {'Now'} 42 {t('x')}</div>;
      export const items = [{ label: 'Open' }, { title: 'route.home' }];`;
    expect(findHardCoded('probe.tsx', probe).map((finding) => finding.text)).toEqual([
      'Hello there',
      'Close it',
      'Save',
      'Now',
      'Open',
    ]);
  });

  it('has every visible string of every component translated', () => {
    expect(Object.keys(components).length).toBeGreaterThan(20);
    const findings = Object.entries(components).flatMap(([file, text]) =>
      findHardCoded(file, text),
    );
    expect(findings.map((f) => `${f.file}:${f.line} ${JSON.stringify(f.text)}`)).toEqual([]);
  });
});
