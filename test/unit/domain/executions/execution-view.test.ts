import { describe, expect, it } from 'vitest';
import { EXECUTION_STATUS, type ExecutionRecord } from '../../../../shared/domain/executions/execution-record.js';
import { ExecutionView, toExecutionView } from '../../../../shared/domain/executions/execution-view.js';
import * as z from '../../../../shared/validation/zod.js';

const NOW = '2026-01-15T10:00:00.000Z';
const SYSTEM: ExecutionRecord = {
  id: 5,
  client_id: 7,
  workflow_id: 1,
  contact_id: 9,
  event_id: 4,
  status: EXECUTION_STATUS.completed,
  is_test: false,
  attempt: 1,
  template_id: 1,
  priority_score: 90,
  critical: false,
  cap_day: '2026-01-15',
  scheduled_for: NOW,
  created_at: NOW,
  updated_at: NOW,
};

describe('toExecutionView: a journey send names its run, step and version', () => {
  it("answers a journey's send step with run_id, step_id and journey_version (not its category or topic)", () => {
    const view = toExecutionView({
      ...SYSTEM,
      workflow_id: 1000,
      run_id: 77,
      run_seq: 4,
      step_id: 'remind',
      journey_version: 2,
      category: 'marketing',
      topic_id: 3,
    });

    expect(view).toMatchObject({
      workflow_id: 1000,
      workflow_name: null,
      run_id: 77,
      step_id: 'remind',
      journey_version: 2,
    });
    expect(view).not.toHaveProperty('run_seq');
    expect(view).not.toHaveProperty('category');
    expect(z.parse(ExecutionView, view)).toEqual(view);
  });

  it("names a client journey's send by the journey's name from the running journeys, a system workflow by the catalog", () => {
    const names = new Map([[1000, 'Cart abandonment']]);

    expect(toExecutionView({ ...SYSTEM, workflow_id: 1000 }, names).workflow_name).toBe('Cart abandonment');
    expect(toExecutionView({ ...SYSTEM, workflow_id: 1001 }, names).workflow_name).toBeNull();
    expect(toExecutionView(SYSTEM, names).workflow_name).toBe(toExecutionView(SYSTEM).workflow_name);
  });

  it("leaves them out of a system workflow's execution: its answer has exactly the fields it had", () => {
    expect(Object.keys(toExecutionView(SYSTEM)).sort()).toEqual(
      [
        'id',
        'workflow_id',
        'workflow_name',
        'contact_id',
        'event_id',
        'status',
        'status_text',
        'reason',
        'goal_event_id',
        'is_test',
        'attempt',
        'retried_from',
        'scheduled_for',
        'processed_at',
        'sent_email_id',
        'created_at',
        'updated_at',
      ].sort(),
    );
  });
});
