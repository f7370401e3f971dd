import crypto from 'node:crypto';
import {
  DEVICE_FILE_CALLS,
  ENTITIES,
  entityCalls,
  INSECT_CALLS,
  LED_CALLS,
  LED_SET_PROGRAM,
  TRACE_PAGE_SETTING_CALLS,
  TRACE_PHOTO_CALLS,
  USER_LINK_CALLS,
  type EntityDef,
  type LedSendResult,
} from '@shuili/contract';
import { storedFields } from '../entity/entity-ddl';
import { ENTITY_SAMPLES, type SampleContext, type Unique } from '../entity/entity-samples';
import {
  TEST_THING_MODEL,
  telemetryUplink,
} from '../modules/iot/telemetry/telemetry-test-fixtures';
import { call, signIn } from '@shuili/test-support/api-client';
import type { TestServer } from '@shuili/test-support/test-server';
import { send } from './route-requests';

/** One object of a tenant the suites aim at: its id, the values it was made with, its marker. */
export interface Fixture {
  id: string;
  values: Record<string, unknown>;
  /**
   * Text only this object carries (it is in its names and codes): an answer to another tenant
   * that contains it has leaked the object. Absent for objects that are not the tenant's own
   * (the platform's clients, shared regions).
   */
  marker?: string;
}

/** The tenant's objects by table, plus every marker. */
export interface TenantFixtures {
  tenantId: string;
  /**
   * By table; a sort of row some calls take instead of any row of the table by
   * `<table>:<sort>` (`iot_device:flood_station`, `iot_command:setProgram`: route-targets.ts).
   */
  byTable: Map<string, Fixture>;
  markers: string[];
}

const RUN = crypto
  .randomBytes(3)
  .toString('hex')
  .replace(/\d/g, (d) => 'ghijklmnop'[Number(d)]!);
let sequence = 0;
/** Values no other object of this run carries (letters and digits, starting with a letter). */
function unique(): Unique {
  sequence += 1;
  return { text: `zq${RUN}${sequence.toString(36)}x`, digits: String(90_000_000 + sequence) };
}

/** Rows the server writes by itself are made as it would make them: still waiting, not done. */
const READ_ONLY_OVERRIDES: Record<string, Record<string, unknown>> = {
  // Not yet expired either, or the expiry sweep would change it while the suite watches.
  Command: {
    status: 'pending',
    createdAt: new Date().toISOString(),
    expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    sentAt: null,
    ackedAt: null,
    latencyMs: null,
    result: null,
  },
  AlarmRecord: { state: 'open', clearedAt: null, acknowledgedBy: null, acknowledgedAt: null },
};

/** A one-pixel PNG: a device image (or species picture) the upload accepts by its bytes. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * Makes one object of every tenant-owned entity in a tenant, as its admin would (the API), or
 * as the server would for rows no call creates (commands, alarm records, logs): each carries a
 * marker, references point at the tenant's other fixtures, trees get a child, the device gets
 * readings and a file. Platform and shared tables get an existing row and no marker.
 */
export async function createTenantFixtures(
  server: TestServer,
  tenantCode: string,
  adminToken: string,
): Promise<TenantFixtures> {
  const { rows } = await server.db.system((sql) =>
    sql.query<{ id: string }>('SELECT id::text FROM tenant WHERE tenant_code = $1', [tenantCode]),
  );
  const tenantId = rows[0]!.id;
  const byTable = new Map<string, Fixture>();
  const markers: string[] = [];
  const pending = new Map<string, Promise<Fixture>>();

  const api = async (method: string, url: string, options: Parameters<typeof call>[3]) => {
    const answer = await call(server, method, url, { token: adminToken, ...options });
    if (answer.status !== 200)
      throw new Error(`${method} ${url} as ${tenantCode}: ${JSON.stringify(answer.body)}`);
    return answer.body.data as Record<string, unknown>;
  };

  async function existing(table: string, where = ''): Promise<Fixture> {
    const found = await server.db.system((sql) =>
      sql.query<Record<string, unknown>>(`SELECT * FROM "${table}" ${where} ORDER BY id LIMIT 1`),
    );
    const row = found.rows[0];
    if (!row) throw new Error(`no row in ${table}`);
    const values = Object.fromEntries(
      Object.entries(row).map(([column, value]) => [
        column.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase()),
        value,
      ]),
    );
    return { id: String(row.id), values };
  }

  async function make(entity: EntityDef, extra: Record<string, unknown> = {}): Promise<Fixture> {
    const sample = ENTITY_SAMPLES[entity.name];
    if (!sample) throw new Error(`entity ${entity.name} has no sample`);
    const u = unique();
    const values: Record<string, unknown> = {
      ...(await sample.create(u, ctx)),
      ...READ_ONLY_OVERRIDES[entity.name],
      ...(entity.name === 'DataPermission'
        ? // A rule of the fixture role (on the sample's menu: a rule needs a menu that lists data).
          { roleCode: (await fixtureOf('sys_role')).values.roleCode }
        : {}),
      ...extra,
    };
    markers.push(u.text);
    if (entity.name === 'IotDeviceFile') {
      const device = String(values.deviceId);
      const name = String(values.originalName).replace(/\.pdf$/, '.png');
      // Raw bytes, as the console posts them.
      const answer = await send(
        server,
        {
          method: 'POST',
          url: DEVICE_FILE_CALLS.upload,
          query: { deviceId: device, fileName: name, fileKind: 'image' },
          raw: { bytes: PNG, type: 'application/octet-stream' },
        },
        adminToken,
      );
      if (answer.status !== 200) throw new Error(`upload: ${answer.text}`);
      const uploaded = answer.json!.data as { id: string };
      return { id: uploaded.id, values: { ...values, originalName: name }, marker: u.text };
    }
    if (!entity.operations.add) {
      const stored = storedFields(entity).filter(([name]) => name in values);
      const id = await server.db.tenant(tenantId, async (sql) => {
        if (sample.write) return sample.write(sql, tenantId, values);
        const inserted = await sql.query<{ id: string }>(
          `INSERT INTO "${entity.table}" (tenant_id, ${stored.map(([, , column]) => `"${column}"`).join(', ')})
           VALUES ($1, ${stored.map((_, i) => `$${i + 2}`).join(', ')}) RETURNING id::text`,
          [tenantId, ...stored.map(([name]) => values[name])],
        );
        return inserted.rows[0]!.id;
      });
      return { id, values, marker: u.text };
    }
    const data = await api('POST', entityCalls(entity).add, { body: values });
    return { id: String(data.id), values, marker: u.text };
  }

  async function fixtureOf(table: string): Promise<Fixture> {
    const known = byTable.get(table);
    if (known) return known;
    if (!pending.has(table)) {
      pending.set(
        table,
        (async () => {
          if (table === 'tenant') return existing('tenant', `WHERE id = ${Number(tenantId)}`);
          // A session of the fixture user (its sample's password), to be listed or signed out.
          if (table === 'user_session') {
            const user = (await fixtureOf('sys_user')).values;
            const session = await signIn(server, tenantCode, String(user.username), 'secret-123');
            return { id: session.jti, values: {} };
          }
          const entity = ENTITIES.find((candidate) => candidate.table === table);
          if (!entity) throw new Error(`no entity is stored in ${table}`);
          // Not the tenant's own: a row that exists, without a marker (others may read it).
          if (entity.scope !== 'tenant') return existing(table);
          return make(entity);
        })(),
      );
    }
    const fixture = await pending.get(table)!;
    byTable.set(table, fixture);
    return fixture;
  }

  /** A new device of the tenant's seeded product of a kind. */
  async function newDevice(kind: string): Promise<Fixture> {
    const { rows } = await server.db.system((sql) =>
      sql.query<{ id: string }>(
        `SELECT id::text FROM iot_product WHERE tenant_id = $1 AND device_kind = $2
          ORDER BY id LIMIT 1`,
        [tenantId, kind],
      ),
    );
    if (!rows[0]) throw new Error(`${tenantCode} has no product of kind ${kind}`);
    const device = ENTITIES.find((candidate) => candidate.table === 'iot_device')!;
    return make(device, { productId: rows[0].id });
  }

  // A device of a kind, made once of the tenant's seeded product of that kind.
  const kindDevices = new Map<string, Promise<Fixture>>();
  const deviceOfKind = (kind: string) => {
    if (!kindDevices.has(kind)) kindDevices.set(kind, newDevice(kind));
    return kindDevices.get(kind)!;
  };
  const kindImages = new Map<string, Promise<string>>();
  const ctx: SampleContext = {
    any: async (table) => (await fixtureOf(table)).id,
    fresh: async (table) => (await fixtureOf(table)).id,
    deviceOfKind: async (kind) => (await deviceOfKind(kind)).id,
    newDeviceOfKind: async (kind) => (await newDevice(kind)).id,
    // An image of a device of a kind (a trap's photo for its species counts), stored once.
    imageOfKind: (kind) => {
      if (!kindImages.has(kind))
        kindImages.set(
          kind,
          (async () => {
            const file = ENTITIES.find((candidate) => candidate.table === 'iot_device_file')!;
            const deviceId = await ctx.deviceOfKind(kind);
            return (await make(file, { deviceId, fileKind: 'image', contentType: 'image/png' })).id;
          })(),
        );
      return kindImages.get(kind)!;
    },
  };

  await fixtureOf('tenant');
  for (const entity of ENTITIES) await fixtureOf(entity.table);
  await fixtureOf('user_session');

  // Grants between the fixtures, so lookups by role, URL, menu or user have something to find.
  const idOf = (table: string) => byTable.get(table)!.id;
  const roleId = idOf('sys_role');
  await api('POST', '/api/admin/sysurl/authorizeUrlToRole', {
    body: { roleId, urlIds: [idOf('sys_url')] },
  });
  await api('POST', '/api/admin/sysmenu/authorizeMenuToRole', {
    body: { roleId, menuIds: [idOf('sys_menu')] },
  });
  await api('POST', '/api/admin/sysmenu/authorizeMenuButtonToRole', {
    body: { roleId, menuId: idOf('sys_menu'), buttonIds: [idOf('sys_menu_button')] },
  });
  await api('POST', '/api/admin/syszone/assignZone', {
    body: { userId: idOf('sys_user'), zoneIds: [idOf('sys_zone')] },
  });
  await api('POST', USER_LINK_CALLS.bindProjects, {
    body: { userId: idOf('sys_user'), projectIds: [idOf('iot_project')] },
  });

  // The sorts of rows area calls take (route-targets.ts): devices of the areas' kinds (the trap
  // has today's photo, labelled by the species fixture), an LED program's send to a screen.
  for (const kind of ['insect_trap', 'flood_station', 'led_screen'])
    byTable.set(`iot_device:${kind}`, await deviceOfKind(kind));
  const program = byTable.get('monitor_led_program')!;
  await api('PUT', LED_CALLS.saveContent, {
    body: {
      id: program.id,
      width: program.values.width,
      height: program.values.height,
      pages: [
        {
          durationSeconds: 10,
          elements: [
            { id: 'title', type: 'text', x: 0, y: 0, width: 64, height: 16, text: program.marker },
          ],
        },
      ],
    },
  });
  const sent = (await api('POST', LED_CALLS.send, {
    body: { programId: program.id, deviceIds: [byTable.get('iot_device:led_screen')!.id] },
  })) as unknown as LedSendResult[];
  // Its command carries the program (its code and pages): the program's marker.
  byTable.set(`iot_command:${LED_SET_PROGRAM}`, {
    id: sent[0]!.command.id,
    values: sent[0]!.command,
    marker: program.marker,
  });
  // The species fixture's picture, to be downloaded.
  const species = byTable.get('monitor_insect_species')!;
  const picture = await send(
    server,
    {
      method: 'POST',
      url: INSECT_CALLS.uploadSpeciesPicture,
      query: { id: species.id, fileName: `${species.marker}.png` },
      raw: { bytes: PNG, type: 'application/octet-stream' },
    },
    adminToken,
  );
  if (picture.status !== 200) throw new Error(`species picture: ${picture.text}`);

  // A photo of the base fixture (named by its marker), to be listed, downloaded and deleted;
  // and the public page's settings, titled with a marker of their own.
  const base = byTable.get('trace_base')!;
  const photo = await send(
    server,
    {
      method: 'POST',
      url: TRACE_PHOTO_CALLS.baseUpload,
      query: { id: base.id, fileName: `${base.marker}.png` },
      raw: { bytes: PNG, type: 'application/octet-stream' },
    },
    adminToken,
  );
  if (photo.status !== 200) throw new Error(`trace photo: ${photo.text}`);
  byTable.set('trace_photo', {
    id: (photo.json!.data as { id: string }).id,
    values: { baseId: base.id },
    marker: base.marker,
  });
  // And one of the growth record fixture, so its list has something to find.
  const record = byTable.get('trace_growth_record')!;
  const recordPhoto = await send(
    server,
    {
      method: 'POST',
      url: TRACE_PHOTO_CALLS.growthUpload,
      query: { id: record.id, fileName: `${record.marker}.png` },
      raw: { bytes: PNG, type: 'application/octet-stream' },
    },
    adminToken,
  );
  if (recordPhoto.status !== 200) throw new Error(`trace photo: ${recordPhoto.text}`);
  const pageTitle = unique().text;
  markers.push(pageTitle);
  await api('POST', TRACE_PAGE_SETTING_CALLS.save, {
    body: { title: pageTitle, contact: `${pageTitle} contact`, sections: { scans: false } },
  });

  // A tree's first level below the fixture is its child: make one, so the level is not empty.
  for (const entity of ENTITIES.filter((one) => one.tree && one.scope === 'tenant')) {
    const parent = byTable.get(entity.table)!;
    await make(entity, { [entity.tree!.parent]: parent.id });
  }

  // Readings of the fixture device, one of them text carrying the device's marker.
  const device = byTable.get('iot_device')!;
  await server.db.system((sql) =>
    sql.query(`UPDATE iot_product SET thing_model = $2::jsonb WHERE id = $1`, [
      device.values.productId,
      JSON.stringify(TEST_THING_MODEL),
    ]),
  );
  const target = {
    tenantId,
    tenantCode,
    deviceId: device.id,
    deviceNo: String(device.values.deviceNo),
    productId: String(device.values.productId),
  };
  const now = Date.now();
  for (let i = 0; i < 3; i += 1)
    await server.app.telemetry.ingest.handle(
      telemetryUplink(target, {
        ts: now - (3 - i) * 60_000,
        values: { flow: 10 + i, note: `${device.marker} reading ${i}` },
      }),
    );

  // A card write of the card fixture (the service desk's write after commit), still pending.
  const card = byTable.get('billing_card');
  if (card) {
    const { rows: written } = await server.db.system((sql) =>
      sql.query<{ id: string }>(
        `INSERT INTO billing_card_write (tenant_id, card_id, card_no, reason, balance_fen, sequence)
         SELECT $1, c.id, c.card_no, 'replace', 0, 1 FROM billing_card c WHERE c.id = $2
         RETURNING id::text`,
        [tenantId, card.id],
      ),
    );
    byTable.set('billing_card_write', { id: written[0]!.id, values: { cardId: card.id } });
  }

  return { tenantId, byTable, markers };
}
