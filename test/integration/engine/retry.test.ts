import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call, RFC3339_UTC } from '../support/api.js';
import { createTestClient } from '../support/clients.js';
import { awaitExecutionStatus, listExecutions } from '../support/executions.js';

/**
 * The SES mailbox simulator address the local runtime refuses with MessageRejected (docs/api-guide.md, "Events,
 * executions and sent e-mails").
 */
const REJECT = 'reject@simulator.amazonses.com';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A client whose welcome e-mail to the reject address failed (4); returns its key and that execution. */
async function failedWelcome() {
  const client = await createTestClient();
  const res = await call('POST', '/client/events?sync=true', {
    key: client.api_key,
    body: { type: 'signup', email: REJECT, auto_create_contact: true },
  });
  const queued = (await listExecutions(client.api_key, 'workflow_id=1'))[0]!;
  const failed = await awaitExecutionStatus(client.api_key, queued.id, 4);
  return { client, event: res.body.data, failed };
}

describe('an e-mail SES refuses', () => {
  it('fails its execution (4) with the MessageRejected reason, and its sent e-mail (10) with a failed log', async () => {
    // Prepare + Act
    const { client, event, failed } = await failedWelcome();

    // Assess
    expect(failed).toEqual({
      id: expect.any(Number),
      workflow_id: 1,
      workflow_name: 'Welcome',
      contact_id: event.contact_id,
      event_id: event.id,
      status: 4,
      status_text: 'failed',
      reason: expect.stringMatching(/^MessageRejected: /),
      goal_event_id: null,
      is_test: false,
      attempt: 1,
      retried_from: null,
      scheduled_for: event.ts,
      processed_at: expect.stringMatching(RFC3339_UTC),
      sent_email_id: expect.stringMatching(UUID),
      created_at: expect.stringMatching(RFC3339_UTC),
      updated_at: expect.stringMatching(RFC3339_UTC),
    });
    const sent = await call('GET', `/client/sent-emails/${failed.sent_email_id}`, { key: client.api_key });
    expect(sent.status).toBe(200);
    expect(sent.body.data).toMatchObject({
      to_email: REJECT,
      status: 10,
      status_text: 'failed',
      provider_message_id: null,
    });
    expect(sent.body.data.logs.map((l: { status: number }) => l.status)).toEqual([1, 10]);
  });
});

describe('POST /client/executions/{execution_id}/retry', () => {
  it('answers 202 for a failed execution: the original becomes retried (7), a new execution runs with retried_from', async () => {
    // Prepare
    const { client, failed } = await failedWelcome();

    // Act
    const res = await call('POST', `/client/executions/${failed.id}/retry`, { key: client.api_key });

    // Assess: the acknowledgement
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ success: true, message: 'Retry queued' });
    const next = res.body.data.execution_id;
    expect(res.body.data).toEqual({
      execution_id: expect.any(Number),
      queue_id: next,
      workflow_id: 1,
      contact_id: failed.contact_id,
      is_test: false,
      status: 1,
      status_text: 'queued',
      reason: null,
      processed_at: null,
      retried_from: failed.id,
    });
    expect(next).not.toBe(failed.id);

    // Assess: the original is retried (7), unchanged otherwise
    const original = (await listExecutions(client.api_key)).find((e) => e.id === failed.id);
    expect(original).toEqual({
      ...failed,
      status: 7,
      status_text: 'retried',
      updated_at: expect.stringMatching(RFC3339_UTC),
    });

    // Assess: the new execution ran (and failed again: the address still refuses), as attempt 2 with its own e-mail
    const retried = await awaitExecutionStatus(client.api_key, next, 4);
    expect(retried).toMatchObject({
      workflow_id: 1,
      contact_id: failed.contact_id,
      event_id: failed.event_id,
      retried_from: failed.id,
      attempt: 2,
      reason: expect.stringMatching(/^MessageRejected: /),
    });
    expect(retried.sent_email_id).toMatch(UUID);
    expect(retried.sent_email_id).not.toBe(failed.sent_email_id);
  });

  it('answers 409 state when the failed execution was retried already, and starts no second retry', async () => {
    // Prepare
    const { client, failed } = await failedWelcome();
    const first = await call('POST', `/client/executions/${failed.id}/retry`, { key: client.api_key });

    // Act
    const again = await call('POST', `/client/executions/${failed.id}/retry`, { key: client.api_key });

    // Assess
    expect(first.status).toBe(202);
    expect(again.status).toBe(409);
    expect(again.body.errors).toEqual([
      { condition: 'state', key: 'execution_id', error: 'Only a failed execution can be retried; this one is retried' },
    ]);
    expect(
      (await listExecutions(client.api_key, 'workflow_id=1')).filter((e) => e.retried_from === failed.id),
    ).toHaveLength(1);
  });

  it('answers 409 state for 5 concurrent retries of one failed execution but one, which creates the only new execution', async () => {
    // Prepare
    const { client, failed } = await failedWelcome();

    // Act
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => call('POST', `/client/executions/${failed.id}/retry`, { key: client.api_key })),
    );

    // Assess
    expect(answers.map((a) => a.status).sort()).toEqual([202, 409, 409, 409, 409]);
    expect(
      (await listExecutions(client.api_key, 'workflow_id=1')).filter((e) => e.retried_from === failed.id),
    ).toHaveLength(1);
  });

  it.each([
    ['completed', 1, 3],
    ['queued', 2, 1],
  ])('answers 409 state for a %s execution and changes nothing', async (text, workflowId, status) => {
    // Prepare
    const client = await createTestClient();
    await call('POST', '/client/events?sync=true', {
      key: client.api_key,
      body: { type: 'signup', email: `ok-${randomUUID().slice(0, 8)}@example.com`, auto_create_contact: true },
    });
    const queued = (await listExecutions(client.api_key, `workflow_id=${workflowId}`))[0]!;
    const execution = await awaitExecutionStatus(client.api_key, queued.id, status);

    // Act
    const res = await call('POST', `/client/executions/${execution.id}/retry`, { key: client.api_key });

    // Assess
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ success: false, data: {} });
    expect(res.body.errors).toEqual([
      { condition: 'state', key: 'execution_id', error: `Only a failed execution can be retried; this one is ${text}` },
    ]);
    const after = await listExecutions(client.api_key);
    expect(after).toHaveLength(2);
    expect(after.find((e) => e.id === execution.id)).toEqual(execution);
  });

  it.each([
    ['an id no execution has', '1'],
    ['a value that is no id', 'abc'],
  ])('answers 404 for %s', async (_case, id) => {
    // Prepare
    const client = await createTestClient();

    // Act
    const res = await call('POST', `/client/executions/${id}/retry`, { key: client.api_key });

    // Assess
    expect(res.status).toBe(404);
    expect(res.body.errors).toEqual([{ condition: 'not_found', key: 'execution_id', error: 'Execution not found' }]);
  });
});

describe('GET /client/sent-emails/{id}', () => {
  it.each([
    ['a UUID no e-mail has', randomUUID()],
    ['a value that is no UUID', 'abc'],
  ])('answers 404 for %s', async (_case, id) => {
    // Prepare
    const client = await createTestClient();

    // Act
    const res = await call('GET', `/client/sent-emails/${id}`, { key: client.api_key });

    // Assess
    expect(res.status).toBe(404);
    expect(res.body.errors).toEqual([{ condition: 'not_found', key: 'id', error: 'Sent e-mail not found' }]);
  });
});
