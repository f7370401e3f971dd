import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import { CJK_FONT_PACKAGE, cjkFontCandidates, defaultPdfFonts, loadPdfFonts } from './cjk-font';
import {
  contentDisposition,
  EXPORT_CONTENT_TYPES,
  exportFileName,
  renderExport,
  type ExportTable,
} from './export-renderer';
import { renderPdf } from './pdf-writer';
import { sheetName } from './xlsx-writer';

const table: ExportTable = {
  title: '用户 / Users',
  columns: [
    { key: 'name', label: '姓名' },
    { key: 'district', label: '灌區名稱' },
    { key: 'note', label: 'Note' },
    { key: 'amount', label: 'Amount' },
    { key: 'active', label: 'Active' },
    { key: 'empty', label: 'Empty' },
  ],
  rows: [
    {
      name: '张三',
      district: '臺灣灌區',
      note: '=HYPERLINK("http://evil.example","click")',
      amount: 1234.5,
      active: true,
      empty: null,
    },
    {
      name: 'Zoë "Q", Smith',
      district: '用户管理',
      note: '+1',
      amount: -3,
      active: false,
      empty: undefined,
    },
    { name: 'two\nlines', district: '設備維護', note: '@SUM(A1)', amount: 0, active: false },
  ],
  generatedAt: new Date('2026-11-22T03:04:05Z'),
  timeZone: 'Asia/Shanghai',
};

/** Every row of the table as the text a reader should find, header first. */
const expected = [
  ['姓名', '灌區名稱', 'Note', 'Amount', 'Active', 'Empty'],
  ['张三', '臺灣灌區', `'=HYPERLINK("http://evil.example","click")`, '1234.5', 'true', ''],
  ['Zoë "Q", Smith', '用户管理', "'+1", '-3', 'false', ''],
  ['two\nlines', '設備維護', "'@SUM(A1)", '0', 'false', ''],
];

function manyRows(count: number): ExportTable {
  return {
    title: '設備清單',
    columns: [
      { key: 'id', label: '编号' },
      { key: 'name', label: '名称' },
      { key: 'flow', label: 'Flow' },
      { key: 'remark', label: '備註' },
    ],
    rows: Array.from({ length: count }, (_, i) => ({
      id: i + 1,
      name: `闸门 ${i + 1}`,
      flow: i * 0.25,
      remark: i % 7 === 0 ? '長備註 '.repeat(30) : `row ${i + 1}`,
    })),
  };
}

/** RFC 4180 reader, kept strict so the writer's quoting is what is tested. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += char;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

async function docxText(buffer: Buffer): Promise<{ xml: string; paragraphs: string[] }> {
  const zip = await JSZip.loadAsync(buffer);
  const xml = (await zip.file('word/document.xml')?.async('string')) ?? '';
  const unescape = (s: string) =>
    s
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&amp;/g, '&');
  const paragraphs = [...xml.matchAll(/<w:p[ >][\s\S]*?<\/w:p>/g)].map((p) =>
    [...p[0].matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>|<w:br\/>/g)]
      .map((m) => (m[0] === '<w:br/>' ? '\n' : unescape(m[1] ?? '')))
      .join(''),
  );
  return { xml, paragraphs };
}

async function pdfPages(
  buffer: Buffer,
): Promise<{ count: number; text: (page: number) => Promise<string> }> {
  const pdf = await getDocument({ data: new Uint8Array(buffer), verbosity: 0 }).promise;
  return {
    count: pdf.numPages,
    text: async (page) => {
      const content = await (await pdf.getPage(page)).getTextContent();
      return content.items.map((item) => ('str' in item ? item.str : '')).join(' ');
    },
  };
}

describe('renderExport', () => {
  it('writes xlsx with a bold frozen header, typed values and neutralised formulas', async () => {
    const buffer = await renderExport('xlsx', table);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(buffer as unknown as ExcelJS.Buffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.name).toBe('用户 Users');
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
    expect(sheet.rowCount).toBe(4);
    const text = (row: number) =>
      table.columns.map((_, c) => {
        const value = sheet.getRow(row).getCell(c + 1).value;
        return value === null ? '' : String(value);
      });
    expected.forEach((row, i) => expect(text(i + 1)).toEqual(row));
    expect(sheet.getCell('D2').value).toBe(1234.5);
    expect(sheet.getCell('D3').value).toBe(-3);
    expect(sheet.getCell('F2').value).toBeNull();
    const widths = sheet.columns.map((column) => column.width ?? 0);
    expect(Math.min(...widths)).toBeGreaterThanOrEqual(8);
    expect(widths[2]).toBeGreaterThan(widths[4]!);
  });

  it('writes csv in UTF-8 with a BOM, RFC 4180 quoting and neutralised formulas', async () => {
    const buffer = await renderExport('csv', table);
    expect([...buffer.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = buffer.subarray(3).toString('utf8');
    expect(text.endsWith('\r\n')).toBe(true);
    expect(parseCsv(text)).toEqual(expected);
  });

  it('writes docx with a title, the time and a table whose header repeats', async () => {
    const { xml, paragraphs } = await docxText(await renderExport('docx', table));
    expect(paragraphs[0]).toBe('用户 / Users');
    expect(paragraphs[1]).toBe('2026-11-22 11:04:05 GMT+08:00');
    expect(xml).toContain('<w:tblHeader/>');
    expect(xml).not.toContain('w:orient="landscape"');
    // One paragraph per cell after the title lines (and the empty cells' empty paragraphs).
    const cells = paragraphs.slice(2, 2 + expected.length * 6);
    expect(cells).toEqual(expected.flat().map((value) => value.replace(/^'/, '')));
  });

  it('writes pdf with real, extractable Chinese text in an embedded CJK font', async () => {
    const fonts = await defaultPdfFonts();
    const searched = cjkFontCandidates().map((c) => c.regular.path);
    expect(fonts.kind, `install ${CJK_FONT_PACKAGE}; no CJK font in ${searched.join(', ')}`).toBe(
      'embedded',
    );
    const buffer = await renderExport('pdf', table);
    const pdf = await pdfPages(buffer);
    expect(pdf.count).toBe(1);
    const text = await pdf.text(1);
    for (const value of ['用户 / Users', '2026-11-22 11:04:05 GMT+08:00', '1 / 1']) {
      expect(text).toContain(value);
    }
    for (const value of expected.flat().filter((v) => v !== '' && !v.includes('\n'))) {
      expect(text).toContain(value.replace(/^'/, ''));
    }
    expect(text).toContain('two');
    expect(text).toContain('lines');
  });

  it('turns docx and pdf pages landscape for many columns', async () => {
    const columns = Array.from({ length: 12 }, (_, i) => ({ key: `c${i}`, label: `列 ${i}` }));
    const wide: ExportTable = {
      title: 'wide',
      columns,
      rows: [Object.fromEntries(columns.map((c) => [c.key, `值 ${c.key}`]))],
    };
    const { xml } = await docxText(await renderExport('docx', wide));
    expect(xml).toContain('w:orient="landscape"');
    const pdf = await getDocument({
      data: new Uint8Array(await renderExport('pdf', wide)),
      verbosity: 0,
    }).promise;
    const [, , width, height] = (await pdf.getPage(1)).view;
    expect(width).toBeGreaterThan(height!);
  });

  it('survives odd values: controls, lone surrogates, NaN, objects, huge text', async () => {
    const huge = '很长的文字 long text '.repeat(5000);
    const odd: ExportTable = {
      title: "'History'",
      columns: [
        { key: 'a', label: 'A' },
        { key: 'b', label: 'B' },
      ],
      rows: [
        { a: 'bell\u0007 and \uD800 lone', b: Number.NaN },
        { a: huge, b: Number.POSITIVE_INFINITY },
        { a: { nested: true } as never, b: new Date('2026-01-02T03:04:05Z') as never },
        { a: 12n as never, b: '\t=1+1' },
      ],
    };
    const xlsx = new ExcelJS.Workbook();
    await xlsx.xlsx.load((await renderExport('xlsx', odd)) as unknown as ExcelJS.Buffer);
    const sheet = xlsx.worksheets[0]!;
    expect(sheet.name).toBe('History 1');
    expect(sheet.getCell('A2').value).toBe('bell and  lone');
    expect(sheet.getCell('B2').value).toBe('NaN');
    expect(String(sheet.getCell('A3').value).length).toBe(32_767);
    expect(sheet.getCell('A4').value).toBe('{"nested":true}');
    expect(sheet.getCell('B4').value).toBe('2026-01-02T03:04:05.000Z');
    expect(sheet.getCell('B5').value).toBe("'\t=1+1");

    const { paragraphs } = await docxText(await renderExport('docx', odd));
    expect(paragraphs.find((p) => p.startsWith('很长'))?.length).toBe(2000);

    const pdf = await pdfPages(await renderExport('pdf', odd));
    expect(pdf.count).toBe(1);
    expect(await pdf.text(1)).toContain('很长的文字');

    const csv = parseCsv((await renderExport('csv', odd)).subarray(3).toString('utf8'));
    expect(csv[1]).toEqual(['bell and  lone', 'NaN']);
  });

  it('writes a pdf in Helvetica, Chinese shown as "?", when no CJK font can be loaded', async () => {
    const fonts = await loadPdfFonts([
      { name: 'missing', regular: { path: '/nonexistent/font.ttf' } },
      { name: 'not a font', regular: { path: new URL(import.meta.url).pathname } },
    ]);
    expect(fonts.kind).toBe('standard');
    const pdf = await pdfPages(await renderPdf(table, fonts));
    const text = await pdf.text(1);
    expect(text).toContain('Zoë "Q", Smith');
    expect(text).toContain('??');
  });

  it('streams 20,000 rows into xlsx and paginates them in pdf with the header on every page', async () => {
    const big = manyRows(20_000);
    const xlsx = new ExcelJS.Workbook();
    await xlsx.xlsx.load((await renderExport('xlsx', big)) as unknown as ExcelJS.Buffer);
    const sheet = xlsx.worksheets[0]!;
    expect(sheet.rowCount).toBe(20_001);
    expect(sheet.getCell('A20001').value).toBe(20_000);
    expect(sheet.getCell('B20001').value).toBe('闸门 20000');

    const pdf = await pdfPages(await renderExport('pdf', big));
    expect(pdf.count).toBeGreaterThan(200);
    const last = await pdf.text(pdf.count);
    expect(last).toContain('闸门 20000');
    expect(last).toContain('编号');
    expect(last).toContain(`${pdf.count} / ${pdf.count}`);
  }, 30_000);
});

describe('exportFileName', () => {
  const at = new Date('2026-11-22T03:04:59Z');
  it('is ASCII-only and stamped with the time', () => {
    expect(exportFileName('users', 'xlsx', at, 'UTC')).toBe('users-20261122-0304.xlsx');
    expect(exportFileName('Gerät Übersicht', 'pdf', at, 'Asia/Shanghai')).toBe(
      'gerat-ubersicht-20261122-1104.pdf',
    );
    expect(exportFileName('用户', 'csv', at, 'UTC')).toBe('export-20261122-0304.csv');
    expect(exportFileName('../etc/passwd', 'docx', at, 'UTC')).toBe(
      'etc-passwd-20261122-0304.docx',
    );
    expect(exportFileName('x', 'csv', at, 'Not/AZone')).toMatch(/^x-\d{8}-\d{4}\.csv$/);
  });
});

describe('contentDisposition', () => {
  it('gives an ASCII fallback and the UTF-8 name (RFC 6266 / 5987)', () => {
    expect(contentDisposition('users-20261122-0304.xlsx')).toBe(
      `attachment; filename="users-20261122-0304.xlsx"; filename*=UTF-8''users-20261122-0304.xlsx`,
    );
    expect(contentDisposition('用户 "a"(1).pdf')).toBe(
      `attachment; filename="__ _a_(1).pdf"; filename*=UTF-8''%E7%94%A8%E6%88%B7%20%22a%22%281%29.pdf`,
    );
    expect(contentDisposition('evil\r\nSet-Cookie: x.csv')).not.toMatch(/[\r\n]/);
  });

  it('names a content type for every format', () => {
    expect(Object.keys(EXPORT_CONTENT_TYPES).sort()).toEqual(['csv', 'docx', 'pdf', 'xlsx']);
  });
});

describe('sheetName', () => {
  it('follows Excel rules', () => {
    expect(sheetName('a[b]:c*d?e/f\\g')).toBe('a b c d e f g');
    expect(sheetName('x'.repeat(40))).toHaveLength(31);
    expect(sheetName('  ')).toBe('Sheet1');
  });
});
