import ExcelJS from 'exceljs';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { renderExport } from '/work/main/apps/server/src/modules/export/export-renderer';
const n = Number(process.argv[2] ?? 20000);
const big = {
  title: '設備清單',
  columns: [
    { key: 'id', label: '编号' },
    { key: 'name', label: '名称' },
    { key: 'flow', label: 'Flow' },
    { key: 'remark', label: '備註' },
  ],
  rows: Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    name: `闸门 ${i + 1}`,
    flow: i * 0.25,
    remark: i % 7 === 0 ? '長備註 '.repeat(30) : `row ${i + 1}`,
  })),
};
const formats = (process.argv[3] ?? 'xlsx,pdf,csv,docx').split(',');
for (const f of formats) {
  let t = Date.now();
  const buf = await renderExport(f as never, big);
  console.log(
    f,
    'render',
    Date.now() - t,
    'ms',
    (buf.length / 1e6).toFixed(1),
    'MB',
    'rss',
    (process.memoryUsage().rss / 1e6).toFixed(0),
    'MB',
  );
  t = Date.now();
  if (f === 'xlsx' && n <= 20000) {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(buf as never);
    console.log(' read', Date.now() - t, wb.worksheets[0]!.rowCount);
  }
  if (f === 'pdf') {
    const pdf = await getDocument({ data: new Uint8Array(buf), verbosity: 0 }).promise;
    console.log(' pages', pdf.numPages, Date.now() - t);
  }
}
import { defaultPdfFonts } from '/work/main/apps/server/src/modules/export/cjk-font';
console.log(
  (await defaultPdfFonts()).kind === 'embedded' ? ((await defaultPdfFonts()) as any).name : 'std',
);
