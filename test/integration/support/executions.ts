import { call } from './api.js';
import { eventually } from './eventually.js';

/** An item of GET /client/executions as the tests read it. */
export interface ExecutionItem {
  id: number;
  workflow_id: number;
  workflow_name: string | null;
  contact_id: number;
  event_id: number | null;
  status: number;
  status_text: string;
  reason: string | null;
  is_test: boolean;
  attempt: number;
  retried_from: number | null;
  scheduled_for: string;
  processed_at: string | null;
  sent_email_id: string | null;
  created_at: string;
  updated_at: string;
}

/** GET /client/executions with `query` (e.g. `workflow_id=1&per_page=100`); fails the test on anything but 200. */
export async function listExecutions(key: string, query = 'per_page=100'): Promise<ExecutionItem[]> {
  const res = await call('GET', `/client/executions?${query}`, { key });
  if (res.status !== 200) throw new Error(`GET /client/executions?${query} answered ${res.status}: ${res.text}`);
  return res.body.data.executions as ExecutionItem[];
}

/** Waits (≤ 10 s) until execution `id` of the key's client is in `status`, and returns it. */
export async function awaitExecutionStatus(key: string, id: number, status: number): Promise<ExecutionItem> {
  return eventually(`execution ${id} in status ${status}`, async () => {
    const found = (await listExecutions(key)).find((e) => e.id === id);
    return found?.status === status ? found : undefined;
  });
}
