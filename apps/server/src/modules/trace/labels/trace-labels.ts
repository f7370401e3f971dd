import { formatTraceCode, traceHomeUrl, type Lang } from '@shuili/contract';
import PDFDocument from 'pdfkit';
import { defaultPdfFonts, type PdfFonts } from '../../export/cjk-font';
import { drawQr, qrMatrix } from './qr';
import { labelTexts, type TraceCommitmentBasis } from './trace-label-texts';

/**
 * The printed side of traceability (docs/traceability.md "Codes"): a sheet of QR labels for a
 * package batch, and its compliance certificate (承诺达标合格证) in the producer's language. Both
 * take plain data and give a PDF; the QR opens `{origin}/traceHome?code={trace code}`.
 */

/** What one label of a package batch shows. */
export interface TraceLabel {
  traceCode: string;
  /** Product as shown, e.g. "大米 · 南粳9108". */
  product: string;
  /** Batch/lot printed on the package. */
  lot: string;
  /** The batch's GS1 Digital Link, printed beside the QR (for resolvers and scanners). */
  digitalLink?: string;
  /** Net content of one package, as shown ("5 kg"). */
  netContent?: string;
  /** Producer name, small, under the product. */
  producer?: string;
}

export interface TraceLabelSheetInput {
  /** Language of the few captions (batch, trace code). */
  lang: Lang;
  /** The console's public origin, e.g. https://console.example.cn (the QR opens its /traceHome). */
  origin: string;
  label: TraceLabel;
  /** How many labels: 24 (one sheet) by default, at most MAX_LABEL_COPIES. */
  copies?: number;
}

/** 3 × 8 labels on an A4 sheet (about 65 × 34 mm each, as common label stock). */
export const LABEL_COLUMNS = 3;
export const LABEL_ROWS = 8;
export const LABELS_PER_SHEET = LABEL_COLUMNS * LABEL_ROWS;
/** 100 sheets: more is a print shop's job, not one download. */
export const MAX_LABEL_COPIES = LABELS_PER_SHEET * 100;

const REGULAR = 'trace-regular';
const BOLD = 'trace-bold';
// Helvetica speaks WinAnsi only: anything else would print as mojibake, so it is shown as "?".
const NOT_WIN_ANSI = /[^\n\x20-\x7e\xa0-\xff€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ]/gu;

function startDocument(
  fonts: PdfFonts,
  options: PDFKit.PDFDocumentOptions,
): { doc: PDFKit.PDFDocument; done: Promise<Buffer>; clean: (text: string) => string } {
  const doc = new PDFDocument({ ...options, info: { Creator: 'Shuili', ...options.info } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  if (fonts.kind === 'embedded') {
    doc.registerFont(REGULAR, fonts.regular.data, fonts.regular.postscriptName);
    doc.registerFont(BOLD, fonts.bold.data, fonts.bold.postscriptName);
  } else {
    doc.registerFont(REGULAR, 'Helvetica');
    doc.registerFont(BOLD, 'Helvetica-Bold');
  }
  const clean =
    fonts.kind === 'embedded'
      ? (text: string) => text
      : (text: string) => text.replace(NOT_WIN_ANSI, '?');
  return { doc, done, clean };
}

/**
 * A sheet (or sheets) of QR labels for a package batch: 3 × 8 on A4, each with the QR of the
 * public page, the product, batch, trace code (in groups of four) and the Digital Link, inside
 * light cut guides.
 */
export async function renderLabelSheet(
  input: TraceLabelSheetInput,
  fonts?: PdfFonts,
): Promise<Buffer> {
  const copies = input.copies ?? LABELS_PER_SHEET;
  if (!Number.isInteger(copies) || copies < 1 || copies > MAX_LABEL_COPIES) {
    throw new RangeError(`copies must be 1 to ${MAX_LABEL_COPIES}: ${copies}`);
  }
  const texts = labelTexts(input.lang);
  const { label } = input;
  const { doc, done, clean } = startDocument(fonts ?? (await defaultPdfFonts()), {
    size: 'A4',
    margin: 0,
    autoFirstPage: false,
    info: { Title: `${texts.labelsTitle} ${label.lot}` },
  });
  const matrix = qrMatrix(traceHomeUrl(input.origin, label.traceCode));

  const marginX = 20;
  const marginY = 28;
  const pad = 6;
  for (let i = 0; i < copies; i++) {
    const slot = i % LABELS_PER_SHEET;
    if (slot === 0) doc.addPage();
    const cellWidth = (doc.page.width - 2 * marginX) / LABEL_COLUMNS;
    const cellHeight = (doc.page.height - 2 * marginY) / LABEL_ROWS;
    const x = marginX + (slot % LABEL_COLUMNS) * cellWidth;
    const y = marginY + Math.floor(slot / LABEL_COLUMNS) * cellHeight;

    doc.save();
    doc.lineWidth(0.3).dash(2, { space: 2 }).strokeColor('#b0b7c3');
    doc.rect(x + 1, y + 1, cellWidth - 2, cellHeight - 2).stroke();
    doc.undash().restore();

    const qrSize = cellHeight - 2 * pad + 8; // the quiet zone may reach into the padding
    drawQr(doc, matrix, x + pad - 4, y + pad - 4, qrSize);

    const textX = x + qrSize + pad - 6;
    const textWidth = x + cellWidth - pad - textX;
    let textY = y + pad + 1;
    const line = (text: string, font: string, size: number, lines: number, color = 'black') => {
      doc.font(font).fontSize(size).fillColor(color);
      const height = Math.min(
        doc.heightOfString(text, { width: textWidth }),
        doc.currentLineHeight(true) * lines,
      );
      doc.text(text, textX, textY, { width: textWidth, height, ellipsis: true, lineBreak: true });
      textY += height + 1.5;
    };
    line(clean(label.product), BOLD, 8, 2);
    if (label.netContent || label.producer) {
      line(
        clean([label.netContent, label.producer].filter(Boolean).join(' · ')),
        REGULAR,
        6,
        1,
        '#333',
      );
    }
    line(clean(`${texts.lot}: ${label.lot}`), REGULAR, 6.5, 1);
    line(clean(`${texts.traceCode}:`), REGULAR, 6, 1, '#333');
    line(formatTraceCode(label.traceCode), BOLD, 9, 1);
    if (label.digitalLink) line(clean(label.digitalLink), REGULAR, 4.6, 3, '#444');
  }
  doc.end();
  return done;
}

/** A compliance certificate (承诺达标合格证) of one package batch or shipment. */
export interface TraceCertificateInput {
  /** The producer's certificate language. */
  lang: Lang;
  origin: string;
  traceCode: string;
  /** Product name as shown. */
  product: string;
  /** Quantity or weight: total in `unit` (e.g. 950 kg), and the package count when packed. */
  quantity: number;
  unit: string;
  packageCount?: number;
  lot: string;
  producer: {
    name: string;
    /** The producer code (生产者代码). */
    code?: string;
    contact?: string;
    phone?: string;
    address?: string;
    /** The producer's own commitment text, printed under the standard one. */
    commitment?: string;
  };
  /** Origin (产地), at village level, e.g. "江苏省南京市江宁区横溪街道石塘村". */
  placeOfOrigin: string;
  /** Date of issue, YYYY-MM-DD. */
  issuedOn: string;
  /** What the commitment rests on (承诺依据): ticked boxes; self-commitment when empty. */
  basis?: TraceCommitmentBasis[];
  digitalLink?: string;
}

function formatQuantity(value: number): string {
  return String(Math.round(value * 1000) / 1000);
}

/**
 * The compliance certificate as one A5 landscape page: title, the national template's fields
 * (product, quantity or weight, producer and contact, origin, date of issue), batch and trace
 * code, the producer's commitment with its boxes ticked and its basis, a signature line and
 * the QR of the public page.
 */
export async function renderCertificate(
  input: TraceCertificateInput,
  fonts?: PdfFonts,
): Promise<Buffer> {
  const texts = labelTexts(input.lang);
  const { doc, done, clean } = startDocument(fonts ?? (await defaultPdfFonts()), {
    size: 'A5',
    layout: 'landscape',
    margin: 24,
    info: { Title: `${texts.certificateTitle} ${input.lot}` },
  });
  const left = 24;
  const width = doc.page.width - 48;
  const bottom = doc.page.height - 24;
  doc
    .lineWidth(1.2)
    .strokeColor('#1f3a5f')
    .rect(left, 24, width, bottom - 24)
    .stroke();
  doc
    .lineWidth(0.4)
    .rect(left + 3, 27, width - 6, bottom - 30)
    .stroke();

  doc.font(BOLD).fontSize(17).fillColor('#1f3a5f');
  doc.text(clean(texts.certificateTitle), left, 36, { width, align: 'center' });

  const qrSize = 118;
  const qrX = left + width - qrSize - 10;
  const qrY = 64;
  drawQr(doc, qrMatrix(traceHomeUrl(input.origin, input.traceCode)), qrX, qrY, qrSize);
  doc.font(REGULAR).fontSize(7).fillColor('#333');
  doc.text(clean(texts.scanToTrace), qrX, qrY + qrSize, { width: qrSize, align: 'center' });
  doc.font(BOLD).fontSize(9).fillColor('black');
  doc.text(formatTraceCode(input.traceCode), qrX, doc.y + 1, { width: qrSize, align: 'center' });
  if (input.digitalLink) {
    doc.font(REGULAR).fontSize(4.6).fillColor('#444');
    doc.text(clean(input.digitalLink), qrX, doc.y + 2, { width: qrSize, align: 'center' });
  }

  const fieldX = left + 16;
  const labelWidth = input.lang === 'en' ? 96 : 78;
  const valueWidth = qrX - 12 - fieldX - labelWidth;
  let y = 66;
  const quantity =
    input.packageCount === undefined
      ? `${formatQuantity(input.quantity)} ${input.unit}`
      : texts.quantityWithPackages(
          input.packageCount,
          `${formatQuantity(input.quantity)} ${input.unit}`,
        );
  const producer = [
    input.producer.name,
    input.producer.code ? `(${texts.producerCode} ${input.producer.code})` : '',
  ]
    .filter(Boolean)
    .join(' ');
  const contact = [input.producer.contact, input.producer.phone].filter(Boolean).join(' ');
  const fields: Array<[string, string]> = [
    [texts.product, input.product],
    [texts.quantity, quantity],
    [texts.producer, producer],
    [texts.contact, contact],
    [texts.origin, input.placeOfOrigin],
    [texts.issuedOn, input.issuedOn],
    [texts.lot, input.lot],
  ];
  if (input.producer.address) fields.splice(4, 0, [texts.address, input.producer.address]);
  for (const [name, value] of fields) {
    doc.font(BOLD).fontSize(9).fillColor('black');
    doc.text(clean(`${name}${texts.colon}`), fieldX, y, { width: labelWidth });
    doc.font(REGULAR).fontSize(9);
    const height = Math.min(doc.heightOfString(clean(value || '—'), { width: valueWidth }), 24);
    doc.text(clean(value || '—'), fieldX + labelWidth, y, {
      width: valueWidth,
      height,
      ellipsis: true,
    });
    y += Math.max(height, 11) + 4;
    doc.save().lineWidth(0.3).strokeColor('#c9d1dc');
    doc
      .moveTo(fieldX + labelWidth, y - 2)
      .lineTo(fieldX + labelWidth + valueWidth, y - 2)
      .stroke();
    doc.restore();
  }

  y = Math.max(y, qrY + qrSize + 34) + 4;
  const box = (x: number, top: number, ticked: boolean) => {
    doc
      .save()
      .lineWidth(0.7)
      .strokeColor('black')
      .rect(x, top + 1.5, 7, 7)
      .stroke();
    if (ticked) {
      doc
        .lineWidth(1.1)
        .moveTo(x + 1.3, top + 5)
        .lineTo(x + 3, top + 7.2)
        .lineTo(x + 6, top + 2.5)
        .stroke();
    }
    doc.restore();
  };
  const fullWidth = width - 32;
  doc.font(BOLD).fontSize(9).fillColor('black');
  doc.text(clean(texts.commitmentLead), fieldX, y, { width: fullWidth });
  y = doc.y + 3;
  doc.font(REGULAR).fontSize(8.5);
  const columnWidth = fullWidth / 2;
  texts.commitments.forEach((item, i) => {
    const x = fieldX + (i % 2) * columnWidth;
    const top = y + Math.floor(i / 2) * 13;
    box(x, top, true);
    doc.text(clean(item), x + 11, top, { width: columnWidth - 14, height: 12, ellipsis: true });
  });
  y += Math.ceil(texts.commitments.length / 2) * 13 + 3;

  const basis = input.basis?.length ? input.basis : (['selfCommitment'] as TraceCommitmentBasis[]);
  doc.font(BOLD).fontSize(8.5);
  doc.text(clean(`${texts.basisLead}${texts.colon}`), fieldX, y, { continued: false });
  let x = fieldX + doc.widthOfString(clean(`${texts.basisLead}${texts.colon}`)) + 6;
  doc.font(REGULAR);
  for (const [key, name] of Object.entries(texts.basis) as Array<[TraceCommitmentBasis, string]>) {
    box(x, y, basis.includes(key));
    doc.text(clean(name), x + 10, y, { lineBreak: false });
    x += 10 + doc.widthOfString(clean(name)) + 12;
  }
  y += 15;

  if (input.producer.commitment) {
    doc.font(REGULAR).fontSize(8).fillColor('#222');
    doc.text(clean(input.producer.commitment), fieldX, y, {
      width: fullWidth,
      height: Math.max(bottom - 40 - y, 10),
      ellipsis: true,
    });
    y = doc.y + 4;
  }

  doc.font(REGULAR).fontSize(9).fillColor('black');
  const signY = bottom - 30;
  doc.text(clean(`${texts.signature}${texts.colon}`), fieldX + fullWidth / 2, signY, {
    lineBreak: false,
  });
  const signX =
    fieldX + fullWidth / 2 + doc.widthOfString(clean(`${texts.signature}${texts.colon}`)) + 4;
  doc
    .save()
    .lineWidth(0.5)
    .moveTo(signX, signY + 11)
    .lineTo(fieldX + fullWidth, signY + 11)
    .stroke()
    .restore();
  doc.end();
  return done;
}
