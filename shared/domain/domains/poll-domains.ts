import { type CheckDeps, checkDueRecord } from './check-domain.js';

export interface PollDomainsOptions {
  /** Stop after this long (the scheduled function's timeout, less a margin); the next run goes on. */
  budgetMs?: number;
  /** Claims read per page of the poller's view (one Query). */
  pageSize?: number;
  /** Claims checked at once: each check is a few DNS and SES calls, so a wave waits on the slowest of them. */
  waveSize?: number;
}

export interface PollDomainsResult {
  checked: number;
  /** Checks that threw (DNS or SES errors): those claims are left as they were and looked at again next run. */
  errors: number;
  stoppedOnBudget: boolean;
}

/**
 * The domain poller: every claim still being checked whose next check is due (the sparse gsi3 view, by next check)
 * is read (one Query and one BatchGetItem a page) and checked, in parallel waves, until the view is read to its end
 * or the budget is spent. A check that throws leaves its claim unchanged (an outage never fails a claim) and does not
 * stop the others.
 */
export async function pollDomains(deps: CheckDeps, options: PollDomainsOptions = {}): Promise<PollDomainsResult> {
  const started = deps.clock.now().getTime();
  const budgetMs = options.budgetMs ?? 45_000;
  const pageSize = options.pageSize ?? 100;
  const waveSize = options.waveSize ?? 10;
  const now = new Date(started).toISOString();
  const overBudget = () => deps.clock.now().getTime() - started >= budgetMs;
  let cursor: string | undefined;
  let checked = 0;
  let errors = 0;
  do {
    const page = await deps.domains.dueChecks(now, pageSize, cursor);
    cursor = page.cursor;
    // The page's claims in one read wave (BatchGetItem), then checked a wave at a time.
    const records = await deps.domains.getMany(page.due);
    for (let i = 0; i < records.length; i += waveSize) {
      if (overBudget()) return { checked, errors, stoppedOnBudget: true };
      const wave = records.slice(i, i + waveSize);
      const outcomes = await Promise.allSettled(wave.map((record) => checkDueRecord(deps, record)));
      for (const [at, outcome] of outcomes.entries()) {
        if (outcome.status === 'fulfilled') {
          checked += 1;
          continue;
        }
        errors += 1;
        const failed = wave[at];
        console.warn(
          JSON.stringify({
            message: 'domain check failed',
            client_id: failed?.client_id,
            domain_id: failed?.id,
            error: String(outcome.reason),
          }),
        );
      }
    }
  } while (cursor && !overBudget());
  return { checked, errors, stoppedOnBudget: cursor !== undefined };
}
