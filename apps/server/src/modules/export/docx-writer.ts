import { randomUUID } from 'node:crypto';
import {
  AlignmentType,
  Document,
  Footer,
  HeadingLevel,
  Packer,
  PageNumber,
  PageOrientation,
  Paragraph,
  TextRun,
} from 'docx';
import JSZip from 'jszip';
import { cellText, displayWidth, truncateText } from './cell-text';
import { ROWS_PER_SLICE, yieldToEventLoop } from './event-loop';
import { LANDSCAPE_FROM_COLUMNS, type ExportTable } from './export-table';
import { formatGeneratedAt } from './export-time';

/** A Word cell is for reading: longer text is cut so one value cannot run over many pages. */
export const DOCX_MAX_CELL_CHARS = 2000;

/** A4 in twips, and the 1.27 cm ("narrow") margins that leave tables the most room. */
const A4_SHORT = 11_906;
const A4_LONG = 16_838;
const MARGIN = 720;
const WIDTH_SAMPLE_ROWS = 200;
const BORDER = 'w:val="single" w:sz="4" w:space="0" w:color="BFBFBF"';

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function columnWidths(table: ExportTable, available: number): number[] {
  const sample = table.rows.slice(0, WIDTH_SAMPLE_ROWS);
  // Character widths between 8 and 40: short columns stay readable, long text wraps.
  const natural = table.columns.map((column) => {
    let width = displayWidth(column.label, 40);
    for (const row of sample) width = Math.max(width, displayWidth(cellText(row[column.key]), 40));
    return Math.min(40, Math.max(8, width)) + 2;
  });
  const total = natural.reduce((sum, width) => sum + width, 0) || 1;
  return natural.map((width) => Math.floor((available * width) / total));
}

function cellXml(value: unknown, width: number, header: boolean): string {
  const text = truncateText(cellText(value), DOCX_MAX_CELL_CHARS);
  const shading = header ? '<w:shd w:val="clear" w:color="auto" w:fill="D9E2F3"/>' : '';
  const align = typeof value === 'number' ? '<w:pPr><w:jc w:val="right"/></w:pPr>' : '';
  // Word ignores "\n" and tabs inside w:t: lines become breaks, tabs spaces.
  const body = text
    .replace(/\t/g, ' ')
    .split(/\r\n|\r|\n/)
    .map((line) => `<w:t xml:space="preserve">${escapeXml(line)}</w:t>`)
    .join('<w:br/>');
  const run = text === '' ? '' : `<w:r>${header ? '<w:rPr><w:b/></w:rPr>' : ''}${body}</w:r>`;
  return `<w:tc><w:tcPr><w:tcW w:w="${width}" w:type="dxa"/>${shading}</w:tcPr><w:p>${align}${run}</w:p></w:tc>`;
}

/**
 * The table as WordprocessingML, written by hand: the docx object model takes about 100 kB of
 * memory per cell, so 20,000 rows cost 2 GB and 12 s, where this takes a few MB and well under a second.
 */
async function tableXml(table: ExportTable, widths: number[]): Promise<Buffer[]> {
  const total = widths.reduce((sum, width) => sum + width, 0);
  const borders = ['top', 'left', 'bottom', 'right', 'insideH', 'insideV']
    .map((side) => `<w:${side} ${BORDER}/>`)
    .join('');
  const margins =
    '<w:top w:w="40" w:type="dxa"/><w:left w:w="80" w:type="dxa"/>' +
    '<w:bottom w:w="40" w:type="dxa"/><w:right w:w="80" w:type="dxa"/>';
  const grid = widths.map((width) => `<w:gridCol w:w="${width}"/>`).join('');
  const header = table.columns.map((column, i) => cellXml(column.label, widths[i] ?? 0, true));
  let parts: string[] = [
    `<w:tbl><w:tblPr><w:tblW w:w="${total}" w:type="dxa"/><w:tblBorders>${borders}</w:tblBorders>` +
      `<w:tblLayout w:type="fixed"/><w:tblCellMar>${margins}</w:tblCellMar></w:tblPr>` +
      `<w:tblGrid>${grid}</w:tblGrid>` +
      `<w:tr><w:trPr><w:cantSplit/><w:tblHeader/></w:trPr>${header.join('')}</w:tr>`,
  ];
  const chunks: Buffer[] = [];
  for (let r = 0; r < table.rows.length; r++) {
    const row = table.rows[r] ?? {};
    const cells = table.columns.map((column, i) => cellXml(row[column.key], widths[i] ?? 0, false));
    parts.push(`<w:tr>${cells.join('')}</w:tr>`);
    if (parts.length >= ROWS_PER_SLICE) {
      chunks.push(Buffer.from(parts.join(''), 'utf8'));
      parts = [];
      await yieldToEventLoop();
    }
  }
  parts.push('</w:tbl>');
  chunks.push(Buffer.from(parts.join(''), 'utf8'));
  return chunks;
}

/**
 * A Word document: title, generation time, and the table with a header row repeated per page.
 * The docx library writes the document around a marker paragraph, which the table replaces.
 */
export async function renderDocx(table: ExportTable): Promise<Buffer> {
  const landscape = table.columns.length >= LANDSCAPE_FROM_COLUMNS;
  const available = (landscape ? A4_LONG : A4_SHORT) - 2 * MARGIN;
  const title = cellText(table.title);
  const marker = `table-${randomUUID()}`;
  const document = new Document({
    title,
    creator: 'Shuili',
    // East Asian text keeps the reader's own default (Word picks one for zh-CN or zh-TW).
    styles: {
      default: {
        document: { run: { size: 18, font: { ascii: 'Arial', hAnsi: 'Arial', cs: 'Arial' } } },
      },
    },
    sections: [
      {
        properties: {
          page: {
            size: {
              width: A4_SHORT,
              height: A4_LONG,
              orientation: landscape ? PageOrientation.LANDSCAPE : PageOrientation.PORTRAIT,
            },
            margin: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
          },
        },
        footers: {
          default: new Footer({
            children: [
              new Paragraph({
                alignment: AlignmentType.CENTER,
                children: [
                  new TextRun({ children: [PageNumber.CURRENT, ' / ', PageNumber.TOTAL_PAGES] }),
                ],
              }),
            ],
          }),
        },
        children: [
          new Paragraph({
            heading: HeadingLevel.HEADING_1,
            children: title
              .split(/\r\n|\r|\n/)
              .map((line, i) => new TextRun({ text: line, break: i > 0 ? 1 : 0 })),
          }),
          new Paragraph({
            spacing: { after: 120 },
            children: [
              new TextRun({
                text: formatGeneratedAt(table.generatedAt, table.timeZone),
                color: '666666',
              }),
            ],
          }),
          new Paragraph({ children: [new TextRun(marker)] }),
          // Word wants a paragraph, not a table, to close the body.
          new Paragraph({}),
        ],
      },
    ],
  });
  const zip = await JSZip.loadAsync(await Packer.toBuffer(document));
  const xml = (await zip.file('word/document.xml')?.async('string')) ?? '';
  const at = xml.indexOf(marker);
  const start = Math.max(xml.lastIndexOf('<w:p>', at), xml.lastIndexOf('<w:p ', at));
  const end = xml.indexOf('</w:p>', at) + '</w:p>'.length;
  if (at < 0 || start < 0) throw new Error('docx export: marker paragraph not found');
  const middle =
    table.columns.length > 0
      ? await tableXml(table, columnWidths(table, available))
      : [Buffer.alloc(0)];
  zip.file(
    'word/document.xml',
    Buffer.concat([Buffer.from(xml.slice(0, start)), ...middle, Buffer.from(xml.slice(end))]),
  );
  return zip.generateAsync({
    type: 'nodebuffer',
    compression: 'DEFLATE',
    compressionOptions: { level: 6 },
  });
}
