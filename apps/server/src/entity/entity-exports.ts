import { dictLabel, translate, type EntityDef, type Lang } from '@shuili/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { Sql } from '../db/database';
import { AppError } from '../http/app-error';
import {
  contentDisposition,
  EXPORT_CONTENT_TYPES,
  exportFileName,
  renderExport,
  type ExportFormat,
  type ExportValue,
} from '../modules/export/export-renderer';
import type { EntityContext } from './entity-hooks';
import { entityRepo, type Row } from './entity-repo';
import { shapeRow, visibleFieldNames } from './entity-rows';
import { filterOf } from './entity-routes';

/** More rows than this is a job for a report, not a download. */
export const EXPORT_ROW_LIMIT = 100_000;

interface ExportDeps {
  inScope<T>(
    request: FastifyRequest,
    write: boolean,
    work: (ctx: EntityContext) => Promise<T>,
  ): Promise<T>;
  visibleFor(request: FastifyRequest, sql: Sql): Promise<ReadonlySet<string> | undefined>;
  query: z.ZodType;
  sortable: string[];
}

/** Dictionary names by type and value, for the dictionaries an entity's fields show. */
async function dictionaryNames(
  sql: Sql,
  entity: EntityDef,
): Promise<Map<string, Map<string, string>>> {
  const types = Object.values(entity.fields).flatMap((field) =>
    field.dictType ? [field.dictType] : [],
  );
  const names = new Map<string, Map<string, string>>();
  if (types.length === 0 || entity.scope !== 'tenant') return names;
  const { rows } = await sql.query<{ dict_type: string; dict_value: string; dict_name: string }>(
    'SELECT dict_type, dict_value, dict_name FROM sys_dict WHERE dict_type = ANY($1)',
    [types],
  );
  for (const row of rows) {
    if (!names.has(row.dict_type)) names.set(row.dict_type, new Map());
    names.get(row.dict_type)!.set(row.dict_value, row.dict_name);
  }
  return names;
}

/** One cell as a person reads it: labels instead of codes and ids, dates in the ISO form. */
function cellOf(
  entity: EntityDef,
  name: string,
  row: Row,
  lang: Lang,
  dicts: Map<string, Map<string, string>>,
): ExportValue {
  const field = entity.fields[name]!;
  const value = row[name];
  if (value === null || value === undefined) return null;
  if (field.ref || field.link) {
    const label = row[`${name}Label`];
    return Array.isArray(label) ? label.join(', ') : ((label as string | null) ?? String(value));
  }
  if (field.options) {
    const values = Array.isArray(value) ? value : [value];
    return values
      .map(
        (one) => field.options!.find((option) => option.value === one)?.label[lang] ?? String(one),
      )
      .join(', ');
  }
  if (field.dictType)
    return dictLabel(dicts.get(field.dictType)?.get(String(value)) ?? String(value), lang);
  if (field.kind === 'status')
    return translate(lang, value === 1 ? 'status.enabled' : 'status.disabled');
  if (field.kind === 'switch') return translate(lang, value ? 'common.yes' : 'common.no');
  if (Array.isArray(value)) return value.join(', ');
  return value as ExportValue;
}

const FORMATS: Array<[ExportFormat, 'exportXlsx' | 'exportDocx' | 'exportPdf' | 'exportCsv']> = [
  ['xlsx', 'exportXlsx'],
  ['docx', 'exportDocx'],
  ['pdf', 'exportPdf'],
  ['csv', 'exportCsv'],
];

/** The spec's export calls: the filtered rows (not just a page) as xlsx, docx, pdf or csv. */
export function registerEntityExports(
  fastify: FastifyInstance,
  entity: EntityDef,
  deps: ExportDeps,
  calls: Record<(typeof FORMATS)[number][1], string>,
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  for (const [format, call] of FORMATS) {
    app.post(calls[call], {
      config: { permission: 'granted', fieldLabels: entity.fields, reads: true },
      schema: {
        tags: [entity.name],
        summary: `Export the filtered ${entity.title.en} as ${format}`,
        querystring: deps.query,
        produces: [EXPORT_CONTENT_TYPES[format]],
      },
      handler: async (request, reply) => {
        const params = request.query as Parameters<typeof filterOf>[1];
        const lang = request.lang;
        const table = await deps.inScope(request, false, async (ctx) => {
          const visible = await deps.visibleFor(request, ctx.sql);
          const filter = filterOf(entity, params, visible);
          const total = await entityRepo.count(ctx.sql, entity, filter);
          if (total > EXPORT_ROW_LIMIT)
            throw new AppError(413, 'export.tooMany', { params: { limit: EXPORT_ROW_LIMIT } });
          const sort =
            params.sort && deps.sortable.includes(params.sort)
              ? params.sort
              : entity.defaultSort.field;
          const rows = await entityRepo.list(
            ctx.sql,
            entity,
            {
              ...filter,
              sort,
              order: params.order ?? entity.defaultSort.order,
              limit: EXPORT_ROW_LIMIT,
              offset: 0,
            },
            true,
          );
          const dicts = await dictionaryNames(ctx.sql, entity);
          const names = visibleFieldNames(entity, visible).filter(
            (name) => entity.fields[name]!.export && !entity.fields[name]!.writeOnly,
          );
          return {
            title: entity.title[lang],
            columns: names.map((name) => ({ key: name, label: entity.fields[name]!.label[lang] })),
            rows: rows.map((found) => {
              const shaped = shapeRow(found, visible);
              return Object.fromEntries(
                names.map((name) => [name, cellOf(entity, name, shaped, lang, dicts)]),
              );
            }),
          };
        });
        const file = await renderExport(format, table, { log: request.log });
        const fileName = exportFileName(entity.name, format);
        return reply
          .header('content-type', EXPORT_CONTENT_TYPES[format])
          .header('content-disposition', contentDisposition(fileName))
          .header('content-length', file.length)
          .send(file);
      },
    });
  }
}
