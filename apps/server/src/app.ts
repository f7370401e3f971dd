import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { Database } from './db/database';
import { EVERYTHING } from './db/announced-cache';
import { loadOrCreateSecret } from './db/server-secret';
import { registerErrorHandling } from './http/error-handler';
import { registerGuard } from './http/guard';
import { registerNulGuard } from './http/nul-guard';
import { registerFormParams } from './http/form-params';
import { consoleSettingsRoutes } from './http/console-settings.routes';
import { healthRoutes } from './http/health.routes';
import { API_DOCS_CSP, registerSecurityHeaders } from './http/security-headers';
import { serializeRequest } from './http/log-redaction';
import { registerWebApp } from './http/web-app';
import { registerScheduler } from './modules/scheduler/scheduler.module';
import { accountRoutes } from './modules/account/account.routes';
import { CaptchaService } from './modules/account/captcha.service';
import { mfaRoutes } from './modules/account/mfa.routes';
import { mySessionsRoutes } from './modules/account/my-sessions.routes';
import { userDetailRoutes } from './modules/account/user-detail.routes';
import { adminEntityRoutes } from './modules/admin/admin-entities';
import { createIotModel, iotModelRoutes } from './modules/iot/device/iot-model.module';
import { iotEntityHookMap, registerIot } from './modules/iot/iot.module';
import { registerMonitor } from './modules/monitor/monitor.module';
import { MONITOR_RULE_HOOKS } from './modules/monitor/monitor-rules.module';
import { IRRIGATION_ENTITY_HOOKS } from './modules/monitor/irrigation/irrigation-entity.hooks';
import { adminRoutes } from './modules/admin/admin.routes';
import { AuditService } from './modules/audit/audit.service';
import { lookupRoutes } from './modules/admin/lookup.routes';
import { userLinkRoutes } from './modules/admin/user-links.routes';
import { userAdminRoutes } from './modules/admin/user-admin.routes';
import { authorityRoutes } from './modules/authority/authority.routes';
import { UrlGrantService } from './modules/authority/url-grant.service';
import { DataFieldService } from './entity/data-field.service';
import { credentialRoutes } from './modules/iot/device/credential.routes';
import { CredentialService } from './modules/iot/device/credential.service';
import { BrowserAccess } from './mqtt/browser-access';
import { createDeviceTransport } from './mqtt/device-transport';
import { TenantSuspension } from './mqtt/tenant-suspension';
import { externalAuthRoutes } from './mqtt/external-auth.routes';
import { PlatformTenants } from './entity/platform-tenants';
import { notificationRoutes } from './modules/notification/notification.routes';
import { OutboxNotifier, type Notifier } from './modules/notify/notifier';
import { AccessTokens } from './modules/uaa/access-token';
import { ClientService } from './modules/uaa/client.service';
import { MfaService } from './modules/uaa/mfa.service';
import { RateLimitService } from './modules/uaa/rate-limit.service';
import { SecretBox } from './modules/uaa/secret-box';
import { TokenService } from './modules/uaa/token.service';
import { uaaRoutes } from './modules/uaa/uaa.routes';

export interface AppOptions {
  config: Config;
  db: Database;
  /** Replaces the development outbox (a real SMS / e-mail gateway). */
  notifier?: Notifier;
  logger?: boolean | object;
}

/** Builds the whole HTTP application on an open, migrated database; main.ts and tests share it. */
export async function buildApp({
  config,
  db,
  notifier,
  logger,
}: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      logger === false
        ? false
        : {
            level: config.logLevel,
            ...(typeof logger === 'object' ? logger : {}),
            serializers: { req: serializeRequest },
          },
    // A hop count trusts that many proxies next to us (Fastify's types take it as a function).
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (_address: string, hop: number) => hop < (config.trustProxy as number)
        : config.trustProxy,
    bodyLimit: 1024 * 1024,
    // Handlers still running when shutdown starts get this long to finish.
    pluginTimeout: 30_000,
    return503OnClosing: true,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // First, so every reply of every route registered below (and 404s, errors) carries them.
  registerSecurityHeaders(app, { https: config.secureCookies, mapTileUrl: config.mapTileUrl });

  await app.register(fastifyCookie);
  await app.register(fastifyFormbody);
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Shuili API',
        description: 'Smart irrigation district console',
        version: '0.1.0',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', staticCSP: API_DOCS_CSP });

  registerErrorHandling(app);
  registerNulGuard(app);
  registerFormParams(app);
  const jwtSecret = config.jwtSecret ?? (await loadOrCreateSecret(db, 'jwt'));
  const captchaKey = await loadOrCreateSecret(db, 'captcha');
  const tokens = new AccessTokens(jwtSecret);
  const grants = new UrlGrantService(db);
  // SESSION_IDLE_SECONDS=0 turns the idle timeout off; the absolute one always applies.
  const sessionLimits = {
    idleSeconds: config.sessionIdleSeconds || null,
    maxSeconds: config.sessionMaxSeconds,
  };
  const { sessions, access } = registerGuard(app, { db, tokens, grants, limits: sessionLimits });
  const browsers = new BrowserAccess({ db, sessions, access, grants });
  app.decorate('browserAccess', browsers);

  const rateLimits = new RateLimitService(db);
  const outbox = notifier ?? new OutboxNotifier(db, app.log, config.logOutbox);
  const captchas = new CaptchaService(db, captchaKey, outbox, rateLimits);
  const mfa = new MfaService(db, new SecretBox(await loadOrCreateSecret(db, 'totp')), rateLimits);
  const tokenService = new TokenService(
    db,
    new ClientService(db),
    tokens,
    rateLimits,
    captchas,
    config.sessionMaxSeconds,
    mfa,
    sessionLimits.idleSeconds,
  );

  await healthRoutes(app, {
    db,
    sessions,
    transport: () => (app.hasDecorator('deviceTransport') ? app.deviceTransport : undefined),
  });
  await consoleSettingsRoutes(app, { mapTileUrl: config.mapTileUrl });
  const audit = new AuditService(db, app.log);
  audit.register(app);
  await app.register(uaaRoutes, { db, tokenService, secureCookies: config.secureCookies, audit });
  await app.register(accountRoutes, {
    db,
    captchas,
    tokenService,
    rateLimits,
    notifier: outbox,
    publicUrl: config.publicUrl,
  });
  await app.register(userDetailRoutes, { db, tokenService, rateLimits, mfa, notifier: outbox });
  await app.register(mfaRoutes, { db, mfa, rateLimits, notifier: outbox });
  await app.register(mySessionsRoutes, { db, limits: sessionLimits });
  await app.register(adminRoutes, { db, captchas, rateLimits, notifier: outbox, grants });
  await app.register(notificationRoutes, { db });
  const platform = new PlatformTenants(db);
  const iotModel = createIotModel(config);
  await app.register(adminEntityRoutes, {
    db,
    grants,
    dataFields: new DataFieldService(),
    platform,
    moreHooks: new Map([
      ...iotEntityHookMap(iotModel),
      ...MONITOR_RULE_HOOKS,
      ...IRRIGATION_ENTITY_HOOKS,
    ]),
  });
  // Not encapsulated: its decorations (deviceChanges, fileStorage) are for the IoT modules.
  await iotModelRoutes(app, { db, model: iotModel, grants });
  await app.register(authorityRoutes, { db, grants });
  await app.register(userAdminRoutes, { db, tokenService, platform });
  await app.register(lookupRoutes, { db });
  await app.register(userLinkRoutes, { db });
  // The scheduler core (docs/scheduler.md): modules register processors on app.scheduler; it
  // stops before the broker (its preClose hook is added first), so runs under way finish.
  registerScheduler(app, { db });
  // The MQTT broker (embedded or external, docs/iot.md): modules reach it as app.deviceTransport.
  // It stops in preClose, before the HTTP server waits for its connections (WebSockets included).
  const deviceCredentials = new CredentialService(db);
  const deviceTransport = createDeviceTransport(config, app, {
    db,
    tokens,
    devices: deviceCredentials,
    browsers,
  });
  // A device identity that ended (device deleted or renumbered, secret revoked), on any node:
  // its connections end here too (docs/iot.md "Device identities").
  deviceCredentials.onIdentityEnded((ended) => {
    if (ended !== EVERYTHING) return deviceTransport.disconnectDevice(ended);
    // Announcements may have been missed: every connection's secret is checked again.
    void deviceTransport.recheckDevices((ids) => deviceCredentials.liveCredentials(ids));
  });
  app.addHook('onReady', () => deviceCredentials.start());
  app.addHook('onClose', () => deviceCredentials.stop());
  // A suspended tenant's devices are shut out on every node (its users' sessions end in its hooks).
  const suspension = new TenantSuspension({
    db,
    access,
    transport: deviceTransport,
    credentials: deviceCredentials,
    log: app.log,
  });
  app.addHook('onReady', () => suspension.start());
  app.addHook('onClose', () => suspension.stop());
  app.decorate('deviceTransport', deviceTransport);
  app.decorate('deviceCredentials', deviceCredentials);
  app.addHook('onReady', () => deviceTransport.start());
  app.addHook('preClose', () => deviceTransport.stop());
  await app.register(credentialRoutes, {
    credentials: deviceCredentials,
    transport: deviceTransport,
    publicUrls: config.mqttPublicUrls,
  });
  // An external broker's HTTP auth hooks run the same device auth and topic ACL (docs/iot.md).
  await app.register(externalAuthRoutes, { config, tokens, devices: deviceCredentials, browsers });
  await registerIot(app, { db });
  await registerMonitor(app, { db, grants });
  // Every tenant lists every granted route as a URL permission, including routes added since.
  app.addHook('onReady', async () => {
    await db.system((sql) => grants.syncCatalogue(sql));
  });
  await registerWebApp(app, config.webDist);
  return app;
}
