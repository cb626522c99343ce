import type { ILogger, LogLevel } from '@microsoft/signalr';

/*
 * Hub problems go to the browser console and nowhere else (specification §8: "hub connection
 * errors: only written to the console, nothing shown to the user"). This file imports only types
 * from @microsoft/signalr, so the library stays out of the first bundle.
 */

/** Where hub messages are written: the console by default, a spy in tests. */
export type HubConsole = Pick<Console, 'warn' | 'error'>;

/** @microsoft/signalr's LogLevel values (a numeric enum), spelled out to avoid a runtime import. */
const WARNING = 3 satisfies LogLevel.Warning;
const ERROR = 4 satisfies LogLevel.Error;
const NONE = 6 satisfies LogLevel.None;

export const HUB_LOG_PREFIX = '[hub]';

/**
 * The ILogger handed to the HubConnection: warnings to console.warn, errors and critical
 * messages to console.error, everything chattier (trace, debug, information) dropped.
 */
export function createHubLogger(sink: HubConsole = console): ILogger {
  return {
    log(level: LogLevel, message: string): void {
      if (level >= NONE) return;
      if (level >= ERROR) sink.error(HUB_LOG_PREFIX, message);
      else if (level >= WARNING) sink.warn(HUB_LOG_PREFIX, message);
    },
  };
}
