import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { APP_VERSION } from '@fvg/contracts';
import Fastify, { type FastifyServerOptions } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import type pg from 'pg';
import { backupRoutes } from './backup/backup.routes.ts';
import { registerBackupJob } from './backup/backup-job.ts';
import type { Config } from './config.ts';
import { createDatabaseStatus, type DatabaseStatus } from './db/availability.ts';
import type { Db } from './db/database.ts';
import { authRoutes } from './features/auth/auth.routes.ts';
import { createAuthService } from './features/auth/auth.service.ts';
import { createSessions } from './features/auth/sessions.ts';
import { chatRoutes } from './features/chat/chat.routes.ts';
import { chatService } from './features/chat/chat.service.ts';
import { companyRoutes } from './features/company/company.routes.ts';
import { companyService } from './features/company/company.service.ts';
import { customsRatesService } from './features/company/customs-rates.ts';
import { containerEventsRoutes } from './features/container-events/container-events.routes.ts';
import { dashboardRoutes } from './features/dashboard/dashboard.routes.ts';
import { dashboardService } from './features/dashboard/dashboard.service.ts';
import { declarationsRoutes } from './features/declarations/declarations.routes.ts';
import { declarationsService } from './features/declarations/declarations.service.ts';
import type { CustomsGateway } from './features/declarations/gateway.ts';
import { createSandboxAuthority } from './features/declarations/sandbox/sandbox-authority.ts';
import { documentsFeature } from './features/documents/documents.plugin.ts';
import { createFileStore } from './features/documents/storage.ts';
import { dossiersRoutes } from './features/dossiers/dossiers.routes.ts';
import { dossiersService } from './features/dossiers/dossiers.service.ts';
import { healthRoutes } from './features/health/health.routes.ts';
import { createMailer, type Mailer } from './features/mail/mailer.ts';
import { createNotificationBus } from './features/notifications/notification-bus.ts';
import { notificationsRoutes } from './features/notifications/notifications.routes.ts';
import { notificationsService } from './features/notifications/notifications.service.ts';
import { partiesRoutes } from './features/parties/parties.routes.ts';
import { partiesService } from './features/parties/parties.service.ts';
import { profileRoutes } from './features/profile/profile.routes.ts';
import { profileService } from './features/profile/profile.service.ts';
import { invoiceDocuments } from './features/sales-invoices/sales-invoices.documents.ts';
import { salesInvoicesRoutes } from './features/sales-invoices/sales-invoices.routes.ts';
import { salesInvoicesService } from './features/sales-invoices/sales-invoices.service.ts';
import { salesOffersRoutes } from './features/sales-offers/sales-offers.routes.ts';
import { salesOffersService } from './features/sales-offers/sales-offers.service.ts';
import { searchRoutes } from './features/search/search.routes.ts';
import { searchService } from './features/search/search.service.ts';
import { transportsRoutes } from './features/transports/transports.routes.ts';
import { transportsService } from './features/transports/transports.service.ts';
import { usersRoutes } from './features/users/users.routes.ts';
import { usersAdminService } from './features/users/users-admin.service.ts';
import { shipmentsRoutes } from './features/warehouse/shipments/shipments.routes.ts';
import { shipmentsService } from './features/warehouse/shipments/shipments.service.ts';
import { stockRoutes } from './features/warehouse/stock/stock.routes.ts';
import { stockService } from './features/warehouse/stock/stock.service.ts';
import {
  closeRevokedSessions,
  forwardNotifications,
  forwardRecordChanges,
  forwardServiceStatus,
  fvgHub,
} from './hub/fvg-hub.ts';
import { localPresence, redisPresence } from './hub/presence.ts';
import { newHubStats } from './hub/protocol/connection.ts';
import { createRedisBackplane } from './hub/protocol/redis-backplane.ts';
import { mountHub } from './hub/protocol/server.ts';
import { createJobs } from './jobs/jobs.ts';
import { type LogOutput, loggerOptions, plainLines, RequestLog } from './logger.ts';
import { createMetrics } from './observability/metrics.ts';
import { observabilityPlugin, requestIdOptions } from './observability/observability.plugin.ts';
import { authenticatePlugin } from './plugins/authenticate.ts';
import { errorsPlugin } from './plugins/errors.ts';
import { idempotencyPlugin, withIdempotencyKeyDocs } from './plugins/idempotency.ts';
import {
  clientErrorHandler,
  frameworkErrors,
  inputGuardPlugin,
  MAX_HEADER_BYTES,
  ROUTER_MAX_PARAM_LENGTH,
} from './plugins/input-guard.ts';
import { secureTransportPlugin } from './plugins/secure-transport.ts';
import { spaPlugin } from './plugins/spa.ts';
import { createRecordEvents } from './records/events.ts';

export interface AppDeps {
  config: Config;
  db: Db;
  logger?: FastifyServerOptions['logger'];
  /** Where the log and the plain lines for people go (the process's stdout unless a test captures it). */
  out?: LogOutput;
  /** The pool behind `db`: with it (and JOBS_ENABLED) this process also runs the job worker (ADR 0027). */
  pool?: pg.Pool;
  /** The gateway declarations are lodged through; tests of the routes alone pass a recording one. */
  customsGateway?: CustomsGateway;
  /** The database's status (openDatabase's, probed and supervised); without one the app probes `db` itself. */
  status?: DatabaseStatus;
}

/** Builds the whole HTTP application; `server.ts` adds the database lifecycle and listening. */
export async function buildApp({
  config,
  db,
  logger,
  out = process.stdout,
  pool,
  customsGateway,
  status: givenStatus,
}: AppDeps) {
  const app = Fastify({
    logger: logger ?? loggerOptions(config.logLevel, out),
    logController: new RequestLog(),
    ...requestIdOptions,
    // A hop count trusts that many proxies nearest the server (Fastify takes it as a function).
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (_address: string, hop: number) => hop < (config.trustProxy as number)
        : config.trustProxy,
    // Limits answered as problem+json by the input guard (414, 431) instead of a 404 or a reset socket.
    http: { maxHeaderSize: MAX_HEADER_BYTES },
    routerOptions: { maxParamLength: ROUTER_MAX_PARAM_LENGTH },
    frameworkErrors,
    clientErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // Down while the database is unreachable (docs/adr/0053): the hub tells clients, the worker waits.
  const status = givenStatus ?? createDatabaseStatus({ probe: () => sql`select 1`.execute(db) });
  if (!givenStatus) app.addHook('onClose', () => status.stop());
  await app.register(errorsPlugin, { onUnavailable: (e) => status.reportError(e) });
  // Request ids, HTTP metrics and /api/metrics (ADR 0055); the other figures are wired below.
  const metrics = createMetrics();
  await app.register(observabilityPlugin, { config, metrics });
  await app.register(inputGuardPlugin);
  await app.register(secureTransportPlugin, { publicUrl: config.publicUrl });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'FVG API', version: APP_VERSION, description: 'Logistics and customs back office' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: withIdempotencyKeyDocs(jsonSchemaTransform),
  });

  const jobs = createJobs({
    pool: config.jobsEnabled ? pool : undefined,
    concurrency: config.jobsConcurrency,
    log: app.log,
    onJobFailed: metrics.jobFailed,
  });
  // One file store for the documents area, the documents other areas make (offer and invoice PDFs) and
  // the mails that attach them.
  const store = createFileStore(config);
  const mailer: Mailer = createMailer(db, {
    jobs,
    store,
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    log: app.log,
    print: plainLines(app.log, out),
  });
  const sessions = createSessions(app.log);
  const auth = await createAuthService(
    db,
    mailer,
    app.log,
    {
      publicUrl: config.publicUrl,
      jwtSecret: config.jwtSecret,
      tokenTtlHours: config.tokenTtlHours,
      loginMaxAttempts: config.loginMaxAttempts,
      loginWindowSeconds: config.loginWindowSeconds,
      onSignInRefused: metrics.signInRefused,
    },
    sessions,
  );
  await app.register(authenticatePlugin, { auth });
  // Before the routes: its hooks apply to every POST of a signed-in user under /api (ADR 0020).
  await app.register(idempotencyPlugin, { db });
  const events = createRecordEvents();
  const parties = partiesService(db, events);
  const notices = createNotificationBus();
  const dossiers = dossiersService(db, events, notices);
  const users = usersAdminService(db, mailer, events, config.publicUrl, sessions);
  const chat = chatService(db, events, notices);
  const profile = profileService(
    db,
    { signer: auth.signer, sessions, mailer, log: app.log },
    {
      publicUrl: config.publicUrl,
      loginMaxAttempts: config.loginMaxAttempts,
      loginWindowSeconds: config.loginWindowSeconds,
    },
  );
  const notifications = notificationsService(db, notices);
  const offers = salesOffersService(db, { events, mailer, jobs, store });
  const salesInvoices = salesInvoicesService(db, events, notices);
  const invoiceFiles = invoiceDocuments(db, store, salesInvoices);
  invoiceFiles.register(jobs);
  // The customs gateway declarations are lodged through: the sandbox, answering as jobs (ADR 0033),
  // unless a test injects another. Its job handler is registered either way: queued answers of
  // declarations lodged earlier still run.
  // Scheduled backups (ADR 0054) through the app's own pool's server; the worker runs them on one node.
  registerBackupJob(jobs, {
    db,
    url: pool?.options.connectionString,
    store,
    config: config.backup,
    log: app.log,
  });
  const sandbox = createSandboxAuthority(db, { events, settings: config.sandbox, log: app.log });
  sandbox.register(jobs);
  const declarations = declarationsService(db, { events, gateway: customsGateway ?? sandbox });
  const stock = stockService(db, { events });
  const shipments = shipmentsService(db, { events });

  await app.register(
    async (api) => {
      await api.register(healthRoutes, { db, jobs, jobsExpected: config.jobsEnabled && pool !== undefined });
      await api.register(backupRoutes, { db, config: config.backup });
      await api.register(authRoutes, { auth, preferences: profile.preferences });
      await api.register(profileRoutes, { profile });
      await api.register(partiesRoutes, { parties });
      await api.register(companyRoutes, { company: companyService(db), rates: customsRatesService(db) });
      await api.register(dossiersRoutes, { dossiers });
      await api.register(usersRoutes, { users });
      await api.register(chatRoutes, { chat });
      await api.register(notificationsRoutes, { notifications });
      await api.register(containerEventsRoutes, { db, events });
      await api.register(documentsFeature, { db, config, events, store });
      await api.register(salesInvoicesRoutes, { invoices: salesInvoices, documents: invoiceFiles });
      await api.register(transportsRoutes, { transports: transportsService(db, events) });
      await api.register(salesOffersRoutes, { offers });
      await api.register(declarationsRoutes, { declarations });
      await api.register(stockRoutes, { stock });
      await api.register(shipmentsRoutes, { shipments });
      await api.register(dashboardRoutes, { dashboard: dashboardService(db) });
      await api.register(searchRoutes, { search: searchService(db) });
      api.get('/openapi.json', { schema: { hide: true } }, () => app.swagger());
      await api.register(swaggerUi, {
        routePrefix: '/docs',
        // The page's asset links are absolute (`<prefix>/docs/static/…`): the plugin sees only its own
        // routePrefix, so the enclosing `/api` is passed on, or the browser asks for `/docs/static/…`.
        indexPrefix: api.prefix,
        // The one published spec, instead of the plugin's own copy under /api/docs/json.
        uiConfig: { urls: [{ url: `${api.prefix}/openapi.json`, name: 'FVG API' }] },
      });
    },
    { prefix: '/api' },
  );
  await app.register(spaPlugin, { root: config.webDist });

  // The real-time hub at {host}/chat. With REDIS_URL, messages and presence reach every node.
  const onRedisError = (e: unknown) => app.log.error({ err: e }, 'redis');
  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 3 }) : undefined;
  redis?.on('error', onRedisError);
  const presence = redis ? redisPresence(redis) : localPresence();
  const hubStats = newHubStats();
  const hub = await mountHub(app, {
    stats: hubStats,
    path: '/api/chat',
    hub: fvgHub({ auth, chat, presence }),
    backplane: config.redisUrl
      ? createRedisBackplane(config.redisUrl, 'fvg:hub:chat', onRedisError)
      : undefined,
    limits: {
      keepAliveIntervalMs: config.hubKeepAliveMs,
      clientTimeoutMs: config.hubClientTimeoutMs,
      recheckIntervalMs: config.hubRecheckMs,
      maxMessageSize: config.hubMaxMessageSize,
    },
  });
  const stopForwarding = forwardRecordChanges(events, hub.lifetime, (err) =>
    app.log.error({ err }, 'hub: a record change could not be delivered'),
  );
  const stopNotifying = forwardNotifications(notices, hub.lifetime, (err) =>
    app.log.error({ err }, 'hub: a notification could not be delivered'),
  );
  const stopRevoking = closeRevokedSessions(sessions, hub.lifetime);
  const stopStatus = forwardServiceStatus(status, hub.lifetime);
  metrics.watch({ db, pool, hub: () => ({ connections: hub.connectionCount, stats: hubStats }) });
  // preClose: open event streams and held polls must end before the HTTP server can close.
  app.addHook('preClose', async () => {
    stopForwarding();
    stopNotifying();
    stopRevoking();
    stopStatus();
    await hub.close();
    await presence.close();
    await redis?.quit().catch(() => {});
  });

  // The worker runs while the app does: it starts once everything is registered and stops (letting its
  // running jobs finish) before server.ts closes the pool and, last, the embedded server (ADR 0002).
  app.addHook('onReady', () => jobs.start());
  app.addHook('onClose', () => jobs.stop());

  return Object.assign(app, {
    services: {
      auth,
      sessions,
      mailer,
      jobs,
      events,
      parties,
      dossiers,
      chat,
      notifications,
      hub,
      salesInvoices,
      invoiceFiles,
      offers,
      store,
      declarations,
      sandbox,
      stock,
      shipments,
      status,
    },
  });
}
export type App = Awaited<ReturnType<typeof buildApp>>;
