import { BROWSER_CLIENT_ID, BROWSER_SCOPE, ROLE_CASHIER, type Lang } from '@shuili/contract';
import type { Config } from '../config';
import { syncDefaultMenus } from '../modules/admin/default-menu-sync';
import { provisionTenant, type NewTenant } from '../modules/admin/tenant-provisioning.service';
import { configuredFileStorageWithin } from '../modules/files/configured-file-storage';
import { seedDemoIot, seedIotCatalogue } from '../modules/iot/device/iot-seed';
import { seedRegions } from '../modules/region/region-seed';
import { hashClientSecret } from '../modules/uaa/client.service';
import { hashPassword } from '../modules/uaa/password-hasher';
import type { Database, Sql } from './database';
import { seedDemoCardSessions } from './demo/demo-billing';
import { seedDemoFloodAndSilt } from './demo/demo-flood-silt';
import { seedDemoHistory } from './demo/demo-history';
import { seedDemoScreens } from './demo/demo-screens';

export type SeedConfig = Pick<
  Config,
  | 'browserClientSecret'
  | 'demoPasswords'
  | 'seedDemo'
  | 'demoHistoryDays'
  | 'demoCardSessions'
  | 'accessTokenSeconds'
  | 'refreshTokenSeconds'
  | 'dataDir'
  | 'fileStorage'
>;

/**
 * Seeds what a fresh database needs: the `browser` OAuth client, the platform tenant and (unless
 * SEED_DEMO=false) the demo tenants. Idempotent: each part is skipped when it exists already.
 */
export async function seed(db: Database, config: SeedConfig): Promise<string[]> {
  const tenants: SeedTenant[] = [
    {
      tenantCode: 'platform',
      tenantName: 'Platform',
      tenantNameI18n: { zh: '平台', tw: '平台', en: 'Platform' },
      isPlatform: true,
      users: [
        {
          username: 'admin',
          nickname: 'Platform admin',
          password: config.demoPasswords.platformAdmin,
          roleCodes: ['ROLE_ADMIN'],
        },
      ],
    },
  ];
  if (config.seedDemo) {
    tenants.push(
      {
        tenantCode: 'demo',
        tenantName: '演示灌区',
        tenantNameI18n: { zh: '演示灌区', tw: '示範灌區', en: 'Demo Irrigation District' },
        contact: 'Demo',
        users: [
          {
            username: 'admin',
            nickname: '管理员',
            password: config.demoPasswords.admin,
            email: 'admin@demo.shuili.local',
            mobile: '+8613800000001',
            roleCodes: ['ROLE_ADMIN'],
          },
          {
            username: 'operator',
            nickname: '操作员',
            password: config.demoPasswords.operator,
            email: 'operator@demo.shuili.local',
            mobile: '+8613800000002',
            roleCodes: ['ROLE_OPERATOR'],
          },
          {
            username: 'cashier',
            nickname: '收费员',
            password: config.demoPasswords.cashier,
            email: 'cashier@demo.shuili.local',
            mobile: '+8613800000003',
            roleCodes: [ROLE_CASHIER],
          },
        ],
      },
      {
        tenantCode: 'acme',
        tenantName: 'Acme Water',
        tenantNameI18n: { zh: '艾克米水务', tw: '艾克米水務', en: 'Acme Water' },
        users: [
          {
            username: 'admin',
            nickname: 'Acme admin',
            password: config.demoPasswords.acmeAdmin,
            email: 'admin@acme.shuili.local',
            mobile: '+8613900000001',
            roleCodes: ['ROLE_ADMIN'],
          },
        ],
      },
    );
  }

  return db.withLock('shuili:seed', async (sql) => {
    const created: string[] = [];
    await sql.query(
      `INSERT INTO oauth_client (client_id, client_secret_hash, authorized_grant_types, scope,
                                 access_token_validity, refresh_token_validity, first_party)
       VALUES ($1, $2, $3, $4, $5, $6, true)
       ON CONFLICT (client_id) DO UPDATE SET client_secret_hash = EXCLUDED.client_secret_hash,
         access_token_validity = EXCLUDED.access_token_validity, refresh_token_validity = EXCLUDED.refresh_token_validity`,
      [
        BROWSER_CLIENT_ID,
        hashClientSecret(config.browserClientSecret),
        ['password', 'mobile', 'refresh_token'],
        [BROWSER_SCOPE],
        config.accessTokenSeconds,
        config.refreshTokenSeconds,
      ],
    );
    // China's administrative divisions, shared by every tenant (once; kept as edited after).
    await seedRegions(sql);
    for (const tenant of tenants) {
      const exists = await sql.query<{ id: string }>(
        'SELECT id::text FROM tenant WHERE tenant_code = $1',
        [tenant.tenantCode],
      );
      if (exists.rows.length > 0) {
        await upgradeIot(sql, tenant.tenantCode, exists.rows[0]!.id);
        // A demo from before the history: it gets its past once (seedDemoHistory says when).
        if (tenant.tenantCode === 'demo')
          await seedDemoHistory(sql, exists.rows[0]!.id, config.demoHistoryDays);
        continue;
      }
      const { tenantId, userIds } = await provisionTenant(sql, await withHashes(tenant));
      if (tenant.tenantCode === 'demo') {
        await seedDemoNotifications(sql, tenantId, userIds);
        await seedDemoIot(sql, tenantId);
      }
      // The demo tenants' other screens (files stored where the server keeps uploads, in this
      // transaction when that is the database).
      if (!tenant.isPlatform)
        await seedDemoScreens(
          sql,
          { tenantCode: tenant.tenantCode, tenantId, userIds },
          configuredFileStorageWithin(config, sql),
        );
      if (tenant.tenantCode === 'demo') {
        await seedDemoHistory(sql, tenantId, config.demoHistoryDays);
        // After the history: a storm of today on top of it, and a silt section due for dredging.
        await seedDemoFloodAndSilt(sql, tenantId, config.demoHistoryDays);
        if (config.demoCardSessions) await seedDemoCardSessions(sql, tenantId);
      }
      created.push(tenant.tenantCode);
    }
    // Menus an upgrade added reach every tenant provisioned before it (once: see the function).
    await syncDefaultMenus(sql);
    return created;
  });
}

/** A tenant to seed, its users' passwords in clear until it is provisioned. */
type SeedTenant = Omit<NewTenant, 'users'> & {
  users: Array<Omit<NewTenant['users'][number], 'passwordHash'> & { password: string }>;
};

/**
 * Hashes a tenant's passwords only when it is provisioned: every start of the server seeds, and
 * five argon2 hashes for tenants that exist already were most of a seeded start's seed.
 */
async function withHashes(tenant: SeedTenant): Promise<NewTenant> {
  const users = await Promise.all(
    tenant.users.map(async ({ password, ...user }) => ({
      ...user,
      passwordHash: await hashPassword(password),
    })),
  );
  return { ...tenant, users };
}

/**
 * A tenant provisioned before the IoT tables existed gets their catalogue (and the demo its
 * district) once: only while it has no product at all, so later deletions stay deleted.
 */
async function upgradeIot(sql: Sql, tenantCode: string, tenantId: string): Promise<void> {
  const products = await sql.query('SELECT 1 FROM iot_product WHERE tenant_id = $1 LIMIT 1', [
    tenantId,
  ]);
  if (products.rows.length > 0) return;
  await seedIotCatalogue(sql, tenantId);
  if (tenantCode === 'demo') await seedDemoIot(sql, tenantId);
}

/** A few notices and a message so the demo's bell and "my notifications" have something to show. */
async function seedDemoNotifications(
  sql: Sql,
  tenantId: string,
  [adminId, operatorId]: string[],
): Promise<void> {
  // Each in the three interface languages: a reader sees only theirs (title_i18n, content_i18n).
  const notices: DemoNotice[] = [
    {
      title: { zh: '春灌开始', tw: '春灌開始', en: 'Spring irrigation opens' },
      content: {
        zh: '<p>春灌于 3 月 1 日开始，请在此之前检查本片区的阀门和流量计。</p>',
        tw: '<p>春灌於 3 月 1 日開始，請在此之前檢查本片區的閥門和流量計。</p>',
        en: '<p>Spring irrigation opens on 1 March. Check valves and flow meters of your zone before then.</p>',
      },
      type: 'notice',
      priority: 'high',
      age: '3 days',
    },
    {
      title: { zh: '泵站检修', tw: '泵站檢修', en: 'Pump station maintenance' },
      content: {
        zh: '<p>2 号泵站于周六 08:00 至 12:00 停机检修。</p>',
        tw: '<p>2 號泵站於週六 08:00 至 12:00 停機檢修。</p>',
        en: '<p>Pump station No. 2 is out of service for maintenance on Saturday from 08:00 to 12:00.</p>',
      },
      type: 'notice',
      priority: 'normal',
      age: '1 day',
    },
    {
      title: { zh: '欢迎使用水利', tw: '歡迎使用水利', en: 'Welcome to Shuili' },
      content: {
        zh: '<p>您的账号已就绪，请从工作台开始。</p>',
        tw: '<p>您的帳號已就緒，請從工作台開始。</p>',
        en: '<p>Your account is ready. Start from the workbench.</p>',
      },
      type: 'message',
      priority: 'normal',
      to: adminId,
      age: '2 hours',
    },
    {
      title: { zh: '交接班', tw: '交接班', en: 'Shift handover' },
      content: {
        zh: '<p>夜班前请阅读渠道水位记录。</p>',
        tw: '<p>夜班前請閱讀渠道水位記錄。</p>',
        en: '<p>Please read the canal level log before the night shift.</p>',
      },
      type: 'message',
      priority: 'normal',
      to: operatorId,
      age: '1 hour',
    },
  ];
  for (const { title, content, type, priority, to, age } of notices) {
    await sql.query(
      `INSERT INTO notification (tenant_id, title, content, title_i18n, content_i18n, type, priority,
                                 publisher_id, publish_scope, publish_targets, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, now() - $11::interval)`,
      [
        tenantId,
        title.zh,
        content.zh,
        JSON.stringify(title),
        JSON.stringify(content),
        type,
        priority,
        adminId ?? null,
        to ? 'users' : 'all',
        to ? [to] : [],
        age,
      ],
    );
  }
}

interface DemoNotice {
  title: Record<Lang, string>;
  content: Record<Lang, string>;
  type: 'notice' | 'message';
  priority: 'high' | 'normal';
  /** A message's one reader; a notice is for everyone. */
  to?: string;
  age: string;
}
