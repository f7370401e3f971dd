import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import PDFDocument from 'pdfkit';
import type { ExportLogger } from './export-table';

/** One face of a font file; `postscriptName` picks the face inside a .ttc collection. */
export interface FontFace {
  path: string;
  postscriptName?: string;
}

export interface FontCandidate {
  name: string;
  regular: FontFace;
  /** Falls back to the regular face when missing or unreadable (WenQuanYi has no bold). */
  bold?: FontFace;
}

export interface LoadedFace {
  data: Buffer;
  postscriptName?: string;
}

/** The fonts a PDF is written with: an embedded CJK font, or the built-in Helvetica (no CJK). */
export type PdfFonts =
  { kind: 'embedded'; name: string; regular: LoadedFace; bold: LoadedFace } | { kind: 'standard' };

/** The npm package that ships Noto Sans SC (SIL OFL 1.1): it comes with `npm ci`, no root needed. */
export const CJK_FONT_PACKAGE = '@expo-google-fonts/noto-sans-sc';

function packageFaces(): FontCandidate[] {
  try {
    const require = createRequire(import.meta.url);
    const root = path.dirname(require.resolve(`${CJK_FONT_PACKAGE}/package.json`));
    return [
      {
        name: `${CJK_FONT_PACKAGE} (Noto Sans SC)`,
        regular: { path: path.join(root, '400Regular/NotoSansSC_400Regular.ttf') },
        bold: { path: path.join(root, '700Bold/NotoSansSC_700Bold.ttf') },
      },
    ];
  } catch {
    return [];
  }
}

const NOTO_CJK_DIRS = [
  '/usr/share/fonts/opentype/noto', // Debian / Ubuntu fonts-noto-cjk
  '/usr/share/fonts/google-noto-cjk', // Fedora
  '/usr/share/fonts/noto-cjk', // Arch
];

/**
 * Where a CJK font is looked for, best first: the npm package (TrueType outlines: three times
 * faster to lay out than the CFF Noto CJK collection), then the distributions' packages (Debian
 * fonts-noto-cjk, fonts-wqy-microhei, fonts-wqy-zenhei, fonts-droid-fallback), then the system
 * fonts of a developer's Mac or Windows machine.
 */
export function cjkFontCandidates(): FontCandidate[] {
  return [
    ...packageFaces(),
    ...NOTO_CJK_DIRS.map((dir) => ({
      name: 'Noto Sans CJK SC',
      regular: { path: `${dir}/NotoSansCJK-Regular.ttc`, postscriptName: 'NotoSansCJKsc-Regular' },
      bold: { path: `${dir}/NotoSansCJK-Bold.ttc`, postscriptName: 'NotoSansCJKsc-Bold' },
    })),
    ...['/usr/share/fonts/truetype/wqy', '/usr/share/fonts/wqy-microhei'].map((dir) => ({
      name: 'WenQuanYi Micro Hei',
      regular: { path: `${dir}/wqy-microhei.ttc`, postscriptName: 'WenQuanYiMicroHei' },
    })),
    {
      name: 'WenQuanYi Zen Hei',
      regular: {
        path: '/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc',
        postscriptName: 'WenQuanYiZenHei',
      },
    },
    {
      name: 'Droid Sans Fallback',
      regular: { path: '/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf' },
    },
    {
      name: 'Arial Unicode MS',
      regular: { path: '/Library/Fonts/Arial Unicode.ttf' },
    },
    {
      name: 'Arial Unicode MS',
      regular: { path: '/System/Library/Fonts/Supplemental/Arial Unicode.ttf' },
    },
    {
      name: 'Microsoft YaHei',
      regular: { path: 'C:\\Windows\\Fonts\\msyh.ttc', postscriptName: 'MicrosoftYaHei' },
      bold: { path: 'C:\\Windows\\Fonts\\msyhbd.ttc', postscriptName: 'MicrosoftYaHei-Bold' },
    },
  ];
}

/** Reads a face and proves pdfkit can lay out Chinese with it, so a broken file is skipped, not fatal. */
async function loadFace(face: FontFace): Promise<LoadedFace | undefined> {
  try {
    const data = await readFile(face.path);
    const probe = new PDFDocument({ autoFirstPage: false });
    probe.registerFont('probe', data, face.postscriptName);
    probe.font('probe');
    if (!(probe.widthOfString('中文字體') > 0)) return undefined;
    return { data, postscriptName: face.postscriptName };
  } catch {
    return undefined;
  }
}

/** The first candidate whose regular face loads; its bold face when that loads too. */
export async function loadPdfFonts(candidates: FontCandidate[]): Promise<PdfFonts> {
  for (const candidate of candidates) {
    const regular = await loadFace(candidate.regular);
    if (!regular) continue;
    const bold = (candidate.bold && (await loadFace(candidate.bold))) || regular;
    return { kind: 'embedded', name: candidate.name, regular, bold };
  }
  return { kind: 'standard' };
}

let defaultFonts: Promise<PdfFonts> | undefined;
let warned = false;

/**
 * The process-wide PDF fonts, loaded once (the Noto files are 10 MB each). Without any CJK font
 * the PDF is still written, in Helvetica, with one warning per process.
 */
export async function defaultPdfFonts(log?: ExportLogger): Promise<PdfFonts> {
  defaultFonts ??= loadPdfFonts(cjkFontCandidates());
  const fonts = await defaultFonts;
  if (fonts.kind === 'standard' && !warned) {
    warned = true;
    const message = `No CJK font found for PDF exports: Chinese text will not show. Install the npm package ${CJK_FONT_PACKAGE} or the Debian package fonts-noto-cjk.`;
    if (log) log.warn({ searched: cjkFontCandidates().map((c) => c.regular.path) }, message);
    else process.emitWarning(message, 'ShuiliExportWarning');
  }
  return fonts;
}
