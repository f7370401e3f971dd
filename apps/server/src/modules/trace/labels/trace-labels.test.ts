import { traceHomeUrl } from '@shuili/contract';
import jsQR from 'jsqr';
import { getDocument, type PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import { defaultPdfFonts } from '../../export/cjk-font';
import { qrMatrix, rasterizeQr } from './qr';
import {
  LABELS_PER_SHEET,
  MAX_LABEL_COPIES,
  renderCertificate,
  renderLabelSheet,
  type TraceCertificateInput,
} from './trace-labels';

async function pdfText(buffer: Buffer): Promise<{ pages: number; text: string[] }> {
  const pdf = await getDocument({ data: new Uint8Array(buffer), verbosity: 0 }).promise;
  const text: string[] = [];
  for (let page = 1; page <= pdf.numPages; page++) {
    const content = await (await pdf.getPage(page)).getTextContent();
    text.push(content.items.map((item) => ('str' in item ? item.str : '')).join(''));
  }
  return { pages: pdf.numPages, text };
}

type RenderParameters = Parameters<PDFPageProxy['render']>[0];
interface Canvas2d {
  getImageData(
    x: number,
    y: number,
    width: number,
    height: number,
  ): { data: Uint8ClampedArray; width: number; height: number };
}

/**
 * Renders a page (pdf.js with its own Node canvas) and reads the QR code inside a rectangle
 * given in PDF points: the code as printed, not only as encoded.
 */
async function qrInPdf(
  buffer: Buffer,
  area: { x: number; y: number; width: number; height: number },
): Promise<string | undefined> {
  const scale = 3;
  const pdf = await getDocument({ data: new Uint8Array(buffer), verbosity: 0 }).promise;
  const page = await pdf.getPage(1);
  const viewport = page.getViewport({ scale });
  const factory = pdf.canvasFactory as {
    create(
      width: number,
      height: number,
    ): { canvas: RenderParameters['canvas']; context: Canvas2d };
  };
  const { canvas, context } = factory.create(viewport.width, viewport.height);
  const canvasContext = context as unknown as RenderParameters['canvasContext'];
  await page.render({ canvas, canvasContext, viewport }).promise;
  const image = context.getImageData(
    area.x * scale,
    area.y * scale,
    area.width * scale,
    area.height * scale,
  );
  return jsQR(image.data, image.width, image.height)?.data;
}

const ORIGIN = 'https://console.example.cn';
const CODE = '7KQ2M9X4TD0C';
const DIGITAL_LINK = 'https://id.gs1.org/01/06901234567892/10/P20260603-01/21/7KQ2M9X4TD0C';

describe('QR codes of the labels', () => {
  it('decode back to the public page of the code', () => {
    const url = traceHomeUrl(ORIGIN, CODE);
    const matrix = qrMatrix(url);
    expect(matrix.size).toBeLessThanOrEqual(33); // version 4 at most: small enough for a label
    const image = rasterizeQr(matrix, 4);
    expect(jsQR(image.data, image.width, image.height)?.data).toBe(url);
  });
});

describe('label sheet', () => {
  it('prints 3 × 8 labels an A4 page with product, batch, trace code and Digital Link', async () => {
    const buffer = await renderLabelSheet({
      lang: 'zh',
      origin: ORIGIN,
      label: {
        traceCode: CODE,
        product: '大米 · 南粳9108',
        lot: 'P20260603-01',
        digitalLink: DIGITAL_LINK,
        netContent: '5 kg',
        producer: '稻香合作社',
      },
      copies: LABELS_PER_SHEET + 1,
    });
    expect(buffer.subarray(0, 5).toString()).toBe('%PDF-');
    const { pages, text } = await pdfText(buffer);
    expect(pages).toBe(2);
    const first = text[0]!;
    expect(first.split('7KQ2-M9X4-TD0C')).toHaveLength(LABELS_PER_SHEET + 1);
    expect(first).toContain('大米 · 南粳9108');
    expect(first).toContain('批号: P20260603-01');
    expect(first).toContain('追溯码');
    expect(first.replace(/\s/g, '')).toContain(DIGITAL_LINK);
    expect(text[1]!.split('7KQ2-M9X4-TD0C')).toHaveLength(2);
    // The first label's QR code, as printed, opens the public page of the code.
    const url = traceHomeUrl(ORIGIN, CODE);
    expect(await qrInPdf(buffer, { x: 20, y: 28, width: 100, height: 100 })).toBe(url);
    // … and so does the last one of the sheet.
    expect(
      await qrInPdf(buffer, { x: 20 + 2 * 185, y: 28 + 7 * 98, width: 100, height: 100 }),
    ).toBe(url);
  });

  it('refuses a number of copies out of range', async () => {
    const input = {
      lang: 'en' as const,
      origin: ORIGIN,
      label: { traceCode: CODE, product: 'Rice', lot: 'L1' },
    };
    await expect(renderLabelSheet({ ...input, copies: 0 })).rejects.toThrow(RangeError);
    await expect(renderLabelSheet({ ...input, copies: MAX_LABEL_COPIES + 1 })).rejects.toThrow(
      RangeError,
    );
  });
});

const CERTIFICATE: TraceCertificateInput = {
  lang: 'zh',
  origin: ORIGIN,
  traceCode: CODE,
  product: '大米（南粳9108）',
  quantity: 950,
  unit: 'kg',
  packageCount: 190,
  lot: 'P20260603-01',
  producer: {
    name: '稻香水稻种植专业合作社',
    code: 'P320115001',
    contact: '王建国',
    phone: '13800000000',
    commitment: '本批次产品经合作社内部检测合格。',
  },
  placeOfOrigin: '江苏省南京市江宁区横溪街道石塘村',
  issuedOn: '2026-06-04',
  basis: ['internalControl'],
  digitalLink: DIGITAL_LINK,
};

describe('compliance certificate', () => {
  it('prints the national template in Chinese: product, quantity, producer, origin, date, commitment', async () => {
    const { pages, text } = await pdfText(await renderCertificate(CERTIFICATE));
    expect(pages).toBe(1);
    const page = text[0]!;
    for (const expected of [
      '承诺达标合格证',
      '食用农产品名称：',
      '大米（南粳9108）',
      '190 件，共 950 kg',
      '稻香水稻种植专业合作社 (代码 P320115001)',
      '王建国 13800000000',
      '产地：',
      '江苏省南京市江宁区横溪街道石塘村',
      '2026-06-04',
      '不使用禁用农药兽药、停用兽药和非法添加物',
      '遵守农药安全间隔期、兽药休药期规定',
      '内部质量控制',
      '本批次产品经合作社内部检测合格。',
      '生产者签名（盖章）',
      '7KQ2-M9X4-TD0C',
    ]) {
      expect(page).toContain(expected);
    }
  });

  it('carries the QR code of the public page, readable as printed', async () => {
    const buffer = await renderCertificate(CERTIFICATE);
    expect(await qrInPdf(buffer, { x: 430, y: 55, width: 150, height: 140 })).toBe(
      traceHomeUrl(ORIGIN, CODE),
    );
  });

  it('prints in the producer language: tw and en', async () => {
    const tw = (await pdfText(await renderCertificate({ ...CERTIFICATE, lang: 'tw' }))).text[0]!;
    expect(tw).toContain('承諾達標合格證');
    expect(tw).toContain('遵守農藥安全間隔期、獸藥休藥期規定');
    const en = (
      await pdfText(
        await renderCertificate({
          ...CERTIFICATE,
          lang: 'en',
          product: 'Rice (Nanjing 9108)',
          packageCount: undefined,
          producer: { name: 'Daoxiang Rice Cooperative', phone: '13800000000' },
          placeOfOrigin: 'Shitang village, Hengxi, Jiangning, Nanjing',
        }),
      )
    ).text[0]!;
    for (const expected of [
      'Certificate of Compliance',
      'Rice (Nanjing 9108)',
      '950 kg',
      'Daoxiang Rice Cooperative',
      'Shitang village',
      'pre-harvest and withdrawal intervals are respected',
      'no banned pesticides',
    ]) {
      expect(en).toContain(expected);
    }
  });

  it('still prints without a CJK font (Helvetica, Chinese as "?")', async () => {
    const buffer = await renderCertificate({ ...CERTIFICATE, lang: 'en' }, { kind: 'standard' });
    const page = (await pdfText(buffer)).text[0]!;
    expect(page).toContain('Certificate of Compliance');
    expect(page).toContain('7KQ2-M9X4-TD0C');
  });

  it('uses the embedded CJK font when one is installed', async () => {
    expect((await defaultPdfFonts()).kind).toBe('embedded');
  });
});
