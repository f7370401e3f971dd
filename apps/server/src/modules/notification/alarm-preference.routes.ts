import { alarmPreferenceSchema, type AlarmPreference } from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Database, Sql } from '../../db/database';
import { envelopeOf, ok } from '../../http/envelope';
import { authOf } from '../../http/request-context';

/** Every level pops up until the user chooses otherwise: an alarm must reach someone. */
const DEFAULT_PREFERENCE: AlarmPreference = { alarmPopupLevel: 'blue' };

async function read(sql: Sql, userId: string): Promise<AlarmPreference> {
  const { rows } = await sql.query<{ alarm_popup_level: AlarmPreference['alarmPopupLevel'] }>(
    'SELECT alarm_popup_level FROM sys_user_preference WHERE user_id = $1',
    [userId],
  );
  return rows[0] ? { alarmPopupLevel: rows[0].alarm_popup_level } : DEFAULT_PREFERENCE;
}

/**
 * The signed-in user's own choice of which new alarms pop up at once (the bell counts them all):
 * kept on the server, so it follows them to any browser.
 */
export async function alarmPreferenceRoutes(fastify: FastifyInstance, deps: { db: Database }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/api/notification/notification/queryAlarmPreference', {
    config: { permission: 'authenticated' },
    schema: {
      tags: ['notification'],
      summary: "The lowest alarm level that pops up for the caller ('off': none)",
      response: { 200: envelopeOf(alarmPreferenceSchema) },
    },
    handler: async (request) => {
      const auth = authOf(request);
      return ok(await deps.db.tenant(auth, (sql) => read(sql, auth.userId)));
    },
  });

  app.post('/api/notification/notification/updateAlarmPreference', {
    config: { permission: 'authenticated' },
    schema: {
      tags: ['notification'],
      summary: "Sets the lowest alarm level that pops up for the caller ('off': none)",
      body: alarmPreferenceSchema,
      response: { 200: envelopeOf(alarmPreferenceSchema) },
    },
    handler: async (request) => {
      const auth = authOf(request);
      return ok(
        await deps.db.tenant(auth, async (sql) => {
          await sql.query(
            `INSERT INTO sys_user_preference (user_id, tenant_id, alarm_popup_level)
             VALUES ($1, $2, $3)
             ON CONFLICT (user_id) DO UPDATE
               SET alarm_popup_level = excluded.alarm_popup_level, updated_at = now()`,
            [auth.userId, auth.tenantId, request.body.alarmPopupLevel],
          );
          return read(sql, auth.userId);
        }),
      );
    },
  });
}
