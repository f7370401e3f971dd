import {
  commandIdSchema,
  commandViewSchema,
  deviceControlSchema,
  sendCommandSchema,
} from '@shuili/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeOf, ok } from '../../../http/envelope';
import { authOf } from '../../../http/request-context';
import type { CommandService } from './command.service';

const deviceIdQuery = z.object({ deviceId: commandIdSchema.shape.id });

/** Sending, cancelling and reading commands; the list itself is the IotCommand entity's query. */
export async function commandRoutes(fastify: FastifyInstance, deps: { commands: CommandService }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['iot'];

  app.post('/api/iot/command/sendCommand', {
    config: { permission: 'granted' },
    schema: {
      tags,
      summary: 'Send a command (or setProperty) to a device; it waits while the device is offline',
      body: sendCommandSchema,
      response: { 200: envelopeOf(commandViewSchema) },
    },
    handler: async (request) => ok(await deps.commands.send(authOf(request), request.body)),
  });

  app.post('/api/iot/command/cancelCommand', {
    config: { permission: 'granted' },
    schema: {
      tags,
      summary: 'Cancel a command still waiting for its device',
      body: commandIdSchema,
      response: { 200: envelopeOf(commandViewSchema) },
    },
    handler: async (request) => ok(await deps.commands.cancel(authOf(request), request.body.id)),
  });

  app.get('/api/iot/command/queryCommandDetail', {
    config: { permission: 'granted' },
    schema: {
      tags,
      summary: 'One command with its current status',
      querystring: commandIdSchema,
      response: { 200: envelopeOf(commandViewSchema) },
    },
    handler: async (request) => ok(await deps.commands.get(authOf(request), request.query.id)),
  });

  app.get('/api/iot/command/queryDeviceControl', {
    config: { permission: 'granted' },
    schema: {
      tags,
      summary: "A device's commands, writable properties and newest command records",
      querystring: deviceIdQuery,
      response: { 200: envelopeOf(deviceControlSchema) },
    },
    handler: async (request) =>
      ok(await deps.commands.deviceControl(authOf(request), request.query.deviceId)),
  });
}
