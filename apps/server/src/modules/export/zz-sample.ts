import { writeFileSync } from 'node:fs';
import { renderExport } from './export-renderer';
const columns = [
  { key: 'name', label: '姓名' },
  { key: 'district', label: '灌區名稱' },
  { key: 'note', label: '備註 Note' },
  { key: 'amount', label: '金额 Amount' },
  { key: 'active', label: '启用' },
  { key: 'empty', label: 'Empty' },
];
const rows = Array.from({ length: 80 }, (_, i) => ({
  name: i % 3 === 0 ? '张三' : i % 3 === 1 ? 'Zoë "Q", Smith' : '陳大文',
  district: i % 2 ? '臺灣灌區管理處' : '用户管理 灌区 一号干渠',
  note:
    i % 5 === 0
      ? '这是一段很长的备注文字，用来测试表格单元格中的自动换行功能是否正常工作。這是繁體中文的說明文字。Long English text that wraps too.'
      : '=HYPERLINK("x")',
  amount: i * 123.45 - 300,
  active: i % 2 === 0,
  empty: null,
}));
const t = {
  title: '用户列表 / Users',
  columns,
  rows,
  generatedAt: new Date(),
  timeZone: 'Asia/Shanghai',
};
writeFileSync('/tmp/fontpk/sample.pdf', await renderExport('pdf', t));
writeFileSync('/tmp/fontpk/sample.docx', await renderExport('docx', t));
writeFileSync('/tmp/fontpk/sample.xlsx', await renderExport('xlsx', t));
const wide = Array.from({ length: 12 }, (_, i) => ({ key: `c${i}`, label: `字段 ${i}` }));
writeFileSync(
  '/tmp/fontpk/wide.pdf',
  await renderExport('pdf', {
    title: '宽表',
    columns: wide,
    rows: rows.map((r, j) =>
      Object.fromEntries(wide.map((c, i) => [c.key, i === 3 ? r.note : `${r.district} ${j}`])),
    ),
  }),
);
