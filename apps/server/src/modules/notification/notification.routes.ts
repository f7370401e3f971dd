import {
  headNotificationSchema,
  myNotificationQuerySchema,
  notificationIdsSchema,
  notificationItemSchema,
} from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/database';
import { envelopeOf, ok, page, pageOf } from '../../http/envelope';
import { authOf } from '../../http/request-context';
import { alarmPreferenceRoutes } from './alarm-preference.routes';
import { notificationRepo } from './notification.repo';

const HEAD_SIZE = 10;

/** What a signed-in user receives: the bell, "my notifications", read marks, alarm pop-ups. */
export async function notificationRoutes(fastify: FastifyInstance, deps: { db: Database }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  await alarmPreferenceRoutes(fastify, deps);

  app.get('/api/notification/notification/queryHeadNotification', {
    config: { permission: 'authenticated' },
    schema: {
      tags: ['notification'],
      summary:
        'Unread counts per type and the newest unread notifications, and the alarms not acknowledged, for the bell',
      response: { 200: envelopeOf(headNotificationSchema) },
    },
    handler: async (request) => {
      const auth = authOf(request);
      return ok(
        await deps.db.tenant(auth, async (sql) => {
          const head = { limit: HEAD_SIZE, offset: 0 };
          const unread = await notificationRepo.page(sql, auth.userId, request.lang, {
            ...head,
            read: false,
            alarms: 'exclude',
          });
          const alarms = await notificationRepo.page(sql, auth.userId, request.lang, {
            ...head,
            alarms: 'open',
          });
          return {
            unread: await notificationRepo.unreadCounts(sql, auth.userId),
            alarms: alarms.total,
            list: [...alarms.list, ...unread.list],
          };
        }),
      );
    },
  });

  app.get('/api/notification/notification/queryMyNotification', {
    config: { permission: 'authenticated' },
    schema: {
      tags: ['notification'],
      summary: "The caller's notifications with read state, newest first, paged",
      querystring: myNotificationQuerySchema,
      response: { 200: pageOf(notificationItemSchema) },
    },
    handler: async (request) => {
      const auth = authOf(request);
      const { currentPage, pageSize, type, read } = request.query;
      const result = await deps.db.tenant(auth, (sql) =>
        notificationRepo.page(sql, auth.userId, request.lang, {
          type,
          read: read === undefined ? undefined : read === 'true',
          limit: pageSize,
          offset: (currentPage - 1) * pageSize,
        }),
      );
      return page(result.list, result.total, currentPage, pageSize);
    },
  });

  app.post('/api/notification/notification/readNotification', {
    config: { permission: 'authenticated' },
    schema: {
      tags: ['notification'],
      summary: 'Marks notifications read: the given ids, or all unread ones (of a type)',
      body: notificationIdsSchema,
      response: { 200: envelopeOf(z.object({ marked: z.number() })) },
    },
    handler: async (request) => {
      const auth = authOf(request);
      const marked = await deps.db.tenant(auth, (sql) =>
        notificationRepo.markRead(
          sql,
          auth.tenantId,
          auth.userId,
          request.body.ids,
          request.body.type,
        ),
      );
      return ok({ marked });
    },
  });
}
