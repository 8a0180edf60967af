/**
 * Locally the handlers log warnings and errors only. On AWS the Powertools logger's INFO line per request is the
 * access log CloudWatch keeps; in a terminal it buries everything `npm start` prints, so it appears only when asked
 * for: `ACCESS_LOG=1`, or any explicit `POWERTOOLS_LOG_LEVEL`.
 *
 * The logger reads the level once, when shared/logger.ts is first imported: call this before importing anything
 * that imports it (the runtime, a handler).
 */
export const LOCAL_DEFAULT_LOG_LEVEL = 'WARN';

export function quietHandlerLogsByDefault(env: NodeJS.ProcessEnv): void {
  if (env['ACCESS_LOG'] === '1' || (env['POWERTOOLS_LOG_LEVEL'] ?? '').trim() !== '') return;
  env['POWERTOOLS_LOG_LEVEL'] = LOCAL_DEFAULT_LOG_LEVEL;
}
