import { RUN_ENDED_STATUSES, type RunRecord } from '../../domain/runs/run-record.js';
import { ENTITY, keys } from './keys.js';

/** Days an ended run is kept (its path and sends answer "what happened to this contact") before its TTL. */
export const RUN_RETENTION_DAYS = 90;

/**
 * A run as a table item: its own key, its contact's history in gsi2 (the erasure finds it), and while it is due (active
 * or waiting) the stuck-run sweep's gsi3 entry by its due time. Every write of a whole run goes through here, so the
 * index entry and the TTL follow the status; an Update that ends a run removes `gsi3pk, gsi3sk` and sets `expires_at`.
 */
export const runItem = (run: RunRecord) => {
  const ended = RUN_ENDED_STATUSES.includes(run.status);
  return {
    ...keys.run(run.client_id, run.id),
    ...keys.runHistory(run.client_id, run.contact_id, run.created_at, run.id),
    ...(!ended && run.due_at !== undefined ? keys.runDueEntry(run.client_id, run.id, run.due_at) : {}),
    ...run,
    ...(ended && run.expires_at === undefined
      ? { expires_at: Math.floor(Date.parse(run.ended_at ?? run.updated_at) / 1000) + RUN_RETENTION_DAYS * 86_400 }
      : {}),
    entity: ENTITY.run,
  };
};

/** The item's record: the table attributes that are no field of the run dropped. */
export function runOf(item: Record<string, unknown>): RunRecord {
  const { pk: _pk, sk: _sk, gsi2pk: _g2p, gsi2sk: _g2s, gsi3pk: _g3p, gsi3sk: _g3s, entity: _e, ...run } = item;
  return run as unknown as RunRecord;
}
