import {
  label,
  parseTraceCode,
  publicTraceSchema,
  TRACE_PAGE_SETTING_CALLS,
  tracePagePreviewSchema,
  tracePageSettingInputSchema,
  tracePageSettingSchema,
} from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../../db/database';
import { loadOrCreateSecret } from '../../../db/server-secret';
import { AppError } from '../../../http/app-error';
import { envelopeOf, ok } from '../../../http/envelope';
import { authOf } from '../../../http/request-context';
import { PublicTraceService, sectionsOf } from '../public/public-trace.service';
import { checkedSetting } from './page-setting-check';
import { pageSettingRepo } from './page-setting.repo';

const fieldLabels = {
  title: { label: label('Page title', '页面标题', '頁面標題') },
  color: { label: label('Colour', '主题色', '主題色') },
  logo: { label: label('Logo', '标志', '標誌') },
  contact: { label: label('Contact line', '联系方式', '聯絡方式') },
  sections: { label: label('Sections shown', '显示的内容', '顯示的內容') },
  code: { label: label('Trace code', '溯源码', '溯源碼') },
};

/**
 * The public trace page's settings (/traceabilitySystem/traceHomeMode, docs/traceability.md
 * "Public page settings"): read, save, back to the defaults, and a preview that is the public
 * call's own answer for one of the tenant's codes with the unsaved settings (no scan counted).
 * Granted calls of the page's menu: administrators hold them, the default operator does not.
 */
export async function pageSettingRoutes(fastify: FastifyInstance, deps: { db: Database }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['trace'];
  const config = { permission: 'granted' as const, fieldLabels };
  const publicPage = new PublicTraceService(
    deps.db,
    await loadOrCreateSecret(deps.db, 'trace-scan'),
  );

  app.get(TRACE_PAGE_SETTING_CALLS.query, {
    config: { ...config, reads: true },
    schema: {
      tags,
      summary: "The public trace page's settings (defaults when none are saved)",
      response: { 200: envelopeOf(tracePageSettingSchema) },
    },
    handler: async (request) =>
      ok(
        await deps.db.tenant(authOf(request), async (sql) => {
          const row = await pageSettingRepo.get(sql);
          return {
            title: row?.title ?? null,
            color: row?.color ?? null,
            logo: row?.logo ?? null,
            contact: row?.contact ?? null,
            sections: sectionsOf(row?.sections),
            updatedAt: row ? row.updated_at.toISOString() : null,
            previewCodes: await pageSettingRepo.previewCodes(sql),
          };
        }),
      ),
  });

  app.post(TRACE_PAGE_SETTING_CALLS.save, {
    config,
    schema: {
      tags,
      summary: "Saves the public trace page's settings",
      body: tracePageSettingInputSchema,
      response: { 200: envelopeOf(z.object({ saved: z.boolean() })) },
    },
    handler: async (request) => {
      const auth = authOf(request);
      const setting = checkedSetting(request.body);
      await deps.db.tenant(auth, (sql) => pageSettingRepo.save(sql, setting, auth.userId));
      return ok({ saved: true });
    },
  });

  app.post(TRACE_PAGE_SETTING_CALLS.reset, {
    config,
    schema: {
      tags,
      summary: "Puts the public trace page's settings back to the defaults",
      response: { 200: envelopeOf(z.object({ saved: z.boolean() })) },
    },
    handler: async (request) => {
      await deps.db.tenant(authOf(request), (sql) => pageSettingRepo.reset(sql));
      return ok({ saved: true });
    },
  });

  app.post(TRACE_PAGE_SETTING_CALLS.preview, {
    config: { ...config, reads: true },
    schema: {
      tags,
      summary:
        "The public page of one of the tenant's codes with unsaved settings (counts no scan)",
      body: tracePagePreviewSchema,
      response: { 200: envelopeOf(publicTraceSchema) },
    },
    handler: async (request) => {
      const auth = authOf(request);
      const { code: asked, ...input } = request.body;
      const setting = checkedSetting(input);
      let code: string | undefined;
      if (asked) {
        const parsed = parseTraceCode(asked);
        if (!parsed.ok) throw noPackage();
        code = parsed.code;
      }
      // The whole tenant, as the public call reads it (no device scope of the caller).
      const trace = await deps.db.tenant(auth.tenantId, async (sql) => {
        const id = await pageSettingRepo.packageId(sql, code);
        return id ? publicPage.compose(sql, id, { setting }) : undefined;
      });
      if (!trace) throw noPackage();
      return ok(trace);
    },
  });
}

const noPackage = () =>
  new AppError(404, 'trace.pageSetting.noPackage', {
    fields: [{ field: 'code', key: 'trace.pageSetting.noPackage' }],
  });
