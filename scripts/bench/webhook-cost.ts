/** Pure helpers of the webhooks bench (scripts/bench/webhooks.ts): naming a measured delivery attempt, formatting. */

/** What one run of a webhook delivery function did, as the bench counted it. */
export interface AttemptCount {
  /** The queue it came from. */
  queue: 'webhooks' | 'webhooks-failing';
  /** The status of each POST it made (null: no answer). */
  posts: readonly (number | null)[];
  /** DynamoDB requests by command name, as the RequestCounter names them (`GetItemCommand`, `UpdateItemCommand`…). */
  byCommand: Readonly<Record<string, number>>;
  /** Messages it sent to the failing lane. */
  toFailingLane: number;
}

const is2xx = (status: number | null) => status !== null && status >= 200 && status < 300;

/**
 * The case of an attempt: moved to the failing lane (no POST), delivered with or without a health change (the
 * endpoint item's UpdateItem), failed with a retry queued. `other` for anything else (reported as such).
 */
export function attemptCase(a: AttemptCount): string {
  const lane = a.queue === 'webhooks' ? 'healthy lane' : 'failing lane';
  const updates = a.byCommand['UpdateItemCommand'] ?? 0;
  if (a.posts.length === 0)
    return a.toFailingLane === 1
      ? `${lane}: endpoint failing → moved to the failing lane, no POST`
      : `${lane}: no POST`;
  if (a.posts.length !== 1) return `${lane}: ${a.posts.length} POSTs`;
  const status = a.posts[0]!;
  if (is2xx(status))
    return updates === 0
      ? `${lane}: ${status}, no health change`
      : `${lane}: ${status}, endpoint recovered (failing_since cleared)`;
  const answer = status === null ? 'no answer' : String(status);
  return updates === 0
    ? `${lane}: ${answer}, endpoint already failing, retry queued`
    : `${lane}: ${answer}, first failure (failing_since set), retry queued`;
}

/** `GetItem 2, PutItem 1` from `{ GetItemCommand: 2, PutItemCommand: 1 }` (Command dropped, by name); `—` for none. */
export function commandsText(byCommand: Readonly<Record<string, number>>): string {
  const entries = Object.entries(byCommand)
    .filter(([, n]) => n !== 0)
    .sort(([a], [b]) => a.localeCompare(b));
  return entries.length === 0
    ? '—'
    : entries.map(([c, n]) => `${c.replace(/Command$/, '')} ${Number.isInteger(n) ? n : n.toFixed(2)}`).join(', ');
}

/** The mean of each command's count over runs (a command absent from a run counts 0 there). */
export function meanCommands(runs: readonly Readonly<Record<string, number>>[]): Record<string, number> {
  const sum: Record<string, number> = {};
  for (const run of runs) for (const [c, n] of Object.entries(run)) sum[c] = (sum[c] ?? 0) + n;
  return Object.fromEntries(Object.entries(sum).map(([c, n]) => [c, n / Math.max(1, runs.length)]));
}

/** The commands `b` sent beyond `a` (negative: fewer); zeros left out. */
export function commandsDelta(
  a: Readonly<Record<string, number>>,
  b: Readonly<Record<string, number>>,
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const d = (b[c] ?? 0) - (a[c] ?? 0);
    if (d !== 0) out[c] = d;
  }
  return out;
}
