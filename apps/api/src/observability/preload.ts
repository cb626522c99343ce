/**
 * Loaded before the server (`node --import`, see the `serve` script): starts OpenTelemetry tracing
 * when OTEL_EXPORTER_OTLP_ENDPOINT is set. Unset (the default) this imports nothing more: the start
 * pays for no tracing code (ADR 0055).
 */
if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT) {
  const { startTracing } = await import('./tracing.ts');
  const stop = await startTracing();
  // The last spans leave before a normal exit; a signal's stop ends with process.exit, which waits for nothing.
  process.once('beforeExit', () => void stop());
  console.log(`[fvg] tracing: exporting to ${process.env.OTEL_EXPORTER_OTLP_ENDPOINT}`);
}

export {};
