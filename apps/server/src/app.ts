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
import {
  BILLING_SETUP_HOOKS,
  registerBillingSetup,
} from './modules/billing/setup/billing-setup.module';
import { IRRIGATION_ENTITY_HOOKS } from './modules/monitor/irrigation/irrigation-entity.hooks';
import { LED_ENTITY_HOOKS } from './modules/monitor/led/led.module';
import { insectEntityHooks } from './modules/monitor/insect/insect-entity.hooks';
import { VIDEO_ENTITY_HOOKS } from './modules/video/camera.hooks';
import { registerVideo } from './modules/video/video.module';
import { registerLedger } from './modules/billing/ledger/ledger.module';
import { registerCards } from './modules/billing/cards/cards.module';
import { registerCardSessions } from './modules/billing/sessions/sessions.module';
import { registerBillingReports } from './modules/billing/reports/reports.module';
import { TRACE_ENTITY_HOOKS } from './modules/trace/trace-entity.hooks';
import { JOB_ENTITY_HOOKS } from './modules/jobs/job-info.hooks';
import { registerJobs } from './modules/jobs/jobs.module';
import { WORKFLOW_ENTITY_HOOKS } from './modules/jobs/workflow/workflow.hooks';
import { registerWorkflows } from './modules/jobs/workflow/workflow.module';
import { publicTraceRoutes } from './modules/trace/public/public-trace.routes';
import { traceChainRoutes } from './modules/trace/chain/chain.routes';
import { pageSettingRoutes } from './modules/trace/page-setting/page-setting.routes';
import { tracePhotoRoutes } from './modules/trace/photos/trace-photo.routes';
import { traceMapRoutes } from './modules/trace/map/trace-map.routes';
import { adminRoutes } from './modules/admin/admin.routes';
import { AuditService } from './modules/audit/audit.service';
import { lookupRoutes } from './modules/admin/lookup.routes';
import { userLinkRoutes } from './modules/admin/user-links.routes';
import { userAdminRoutes } from './modules/admin/user-admin.routes';
import { authorityRoutes } from './modules/authority/authority.routes';
import { UrlGrantService } from './modules/authority/url-grant.service';
import { DataFieldService } from './entity/data-field.service';
import { deviceUploadRoutes } from './modules/files/device-upload.routes';
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
  registerSecurityHeaders(app, {
    https: config.secureCookies,
    mapTileUrl: config.mapTileUrl,
    videoStreamOrigins: config.videoStreamOrigins,
    cardReaderPort: config.cardReaderPort,
  });

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
  await consoleSettingsRoutes(app, {
    mapTileUrl: config.mapTileUrl,
    cardReaderPort: config.cardReaderPort,
  });
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
  const iotModel = createIotModel(config, db);
  await app.register(adminEntityRoutes, {
    db,
    grants,
    dataFields: new DataFieldService(),
    platform,
    moreHooks: new Map([
      ...iotEntityHookMap(iotModel),
      ...MONITOR_RULE_HOOKS,
      ...IRRIGATION_ENTITY_HOOKS,
      ...LED_ENTITY_HOOKS,
      ...insectEntityHooks(db, iotModel.storage),
      ...VIDEO_ENTITY_HOOKS,
      ...BILLING_SETUP_HOOKS,
      ...TRACE_ENTITY_HOOKS,
      ...JOB_ENTITY_HOOKS,
      ...WORKFLOW_ENTITY_HOOKS,
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
  registerScheduler(app, {
    db,
    leaseMs: config.schedulerLeaseMs,
    retryBaseMs: config.schedulerRetryBaseMs,
  });
  // The job scheduler on the core (docs/jobs.md): jobs, instances, nodes; workflows on top.
  await registerJobs(app, { db, config, notifier: outbox });
  await registerWorkflows(app, { db, runner: app.jobs });
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
  // Devices upload their own photos and files with the identity and secret they connect with.
  await app.register(deviceUploadRoutes, {
    db,
    storage: iotModel.storage,
    devices: deviceCredentials,
  });
  // An external broker's HTTP auth hooks run the same device auth and topic ACL (docs/iot.md).
  await app.register(externalAuthRoutes, { config, tokens, devices: deviceCredentials, browsers });
  await registerIot(app, { db });
  await registerMonitor(app, { db, grants });
  // Cameras: the grid's call, snapshots into device images, the demo clip.
  await registerVideo(app, { db, config });
  // Billing: the ledger every money movement posts through (docs: DESIGN §7).
  const ledger = await registerLedger(app, { db });
  // Card controllers' sessions: a swipe reserves, a record posts once (docs/card-billing.md).
  const cardSessions = registerCardSessions(app, { db, ledger });
  // The service desk: card lifecycle and money with write after commit, through the ledger.
  await registerCards(app, { db, ledger, blacklist: cardSessions.blacklist });
  // Card-swipe billing set-up: households, cards, prices and the yearly water rights.
  await registerBillingSetup(app, { db });
  // Money reports: cash report, statistics, revenue, reconciliation and the ledger's checks.
  await registerBillingReports(app, { db });
  // The public trace page's data: signed out, found from the trace code alone.
  await app.register(publicTraceRoutes, { db, rateLimits });
  // One batch's chain (/traceabilitySystem/resume), its EPCIS export, labels and certificate.
  await app.register(traceChainRoutes, { db, publicUrl: config.publicUrl });
  // The public page's settings (/traceabilitySystem/traceHomeMode) and the trace photos.
  await app.register(pageSettingRoutes, { db });
  await app.register(tracePhotoRoutes, { db, storage: iotModel.storage });
  // The digital map (/traceabilitySystem/digitalMap): bases, plots and their devices.
  await app.register(traceMapRoutes, { db, grants });
  // Every tenant lists every granted route as a URL permission, including routes added since.
  app.addHook('onReady', async () => {
    await db.system((sql) => grants.syncCatalogue(sql));
  });
  await registerWebApp(app, config.webDist);
  return app;
}
