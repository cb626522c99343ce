import { register } from 'node:module';
import { createAddHookMessageChannel } from 'import-in-the-middle';

/** Requests too frequent and too dull to trace: probes and scrapes. */
const UNTRACED = /^\/api\/(health(\/|$|\?)|metrics)/;

/**
 * Starts OpenTelemetry tracing (ADR 0055): HTTP, Fastify (each request's span carries its route
 * pattern) and PostgreSQL queries, exported over OTLP/HTTP to OTEL_EXPORTER_OTLP_ENDPOINT with the
 * SDK's own OTEL_* settings. Only `preload.ts` calls this, only when that variable is set, and before
 * the server's modules load: the loader hook it registers must see `pg` being imported.
 * Returns the flush-and-stop of the SDK.
 */
export async function startTracing(): Promise<() => Promise<void>> {
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);

  // Traces only: the metrics are Prometheus's (/api/metrics) and the log is the process's output.
  process.env.OTEL_METRICS_EXPORTER ??= 'none';
  process.env.OTEL_LOGS_EXPORTER ??= 'none';
  const [{ NodeSDK }, { HttpInstrumentation }, { PgInstrumentation }, { default: FastifyOtel }] =
    await Promise.all([
      import('@opentelemetry/sdk-node'),
      import('@opentelemetry/instrumentation-http'),
      import('@opentelemetry/instrumentation-pg'),
      import('@fastify/otel'),
    ]);
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME || 'fvg',
    instrumentations: [
      new HttpInstrumentation({ ignoreIncomingRequestHook: (req) => UNTRACED.test(req.url ?? '') }),
      new PgInstrumentation(),
      // Joins every Fastify instance as it is created (Fastify's diagnostics channel): no change to app.ts.
      new FastifyOtel({
        registerOnInitialization: true,
        ignorePaths: (opts: { url: string }) => UNTRACED.test(opts.url),
        // A span per lifecycle hook of every plugin drowns the request, its handler and its queries.
        instrumentHooks: false,
        // The id of the request's log lines and problem answer, to go from a trace to its log and back.
        requestHook: (span, request) => span.setAttribute('fvg.request_id', request.id),
      }),
    ],
  });
  sdk.start();
  await waitForAllMessagesAcknowledged();
  return () => sdk.shutdown();
}
