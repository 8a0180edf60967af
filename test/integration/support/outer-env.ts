/**
 * Setup file of the unit and infra projects (not of integration). The integration global setup points
 * process.env at its local stores in vitest's main process, and vitest derives every worker's env from it; this
 * puts the runtime's keys back to what they were when vitest started, so a unit test reads the same env whether or
 * not the integration project runs alongside. vitest.config.ts passes the snapshot in OUTER_ENV_SNAPSHOT.
 */
const snapshot = JSON.parse(process.env['OUTER_ENV_SNAPSHOT'] ?? '{}') as Record<string, string | null>;
for (const [key, value] of Object.entries(snapshot)) {
  if (value === null) delete process.env[key];
  else process.env[key] = value;
}
delete process.env['OUTER_ENV_SNAPSHOT'];
