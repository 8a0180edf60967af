/**
 * What a stored webhook message keeps once its contact is erased (docs/decisions/0127-erasure-reaches-webhook-messages.md "Erasure reaches webhook
 * messages"): this service's ids, the fact's type, status and times; every other field goes (address, names, subject,
 * client_contact_id, the event's idempotency key, ip, user agent, url, diagnostics, topics), at any depth. The body
 * gets `data.erased: true`, so a replay of it tells the receiver why the rest is missing.
 */
const KEPT = new Set([
  'id',
  'type',
  'status',
  'occurred_at',
  'created_at',
  'updated_at',
  'sent_email_created_at',
  'sent_email_id',
  'execution_id',
  'workflow_id',
  'contact_id',
  'email_template_id',
  'is_test',
  // A journey run's ids and position: the journey's own structure, nothing the contact gave.
  'run_id',
  'journey_id',
  'journey_version',
  'step_id',
  'seq',
]);

/** Objects whose ids are kept: the triggering event and the contact of a contact fact. */
const NESTED = new Set(['event', 'contact']);

function idsOnly(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, v] of Object.entries(value)) {
    if (NESTED.has(name) && v !== null && typeof v === 'object' && !Array.isArray(v))
      out[name] = idsOnly(v as Record<string, unknown>);
    else if (KEPT.has(name) && (v === null || typeof v !== 'object')) out[name] = v;
  }
  return out;
}

/** The erased form of a message's signed body `{ type, id, created_at, data }`. */
export function erasedWebhookPayload(payload: string): string {
  const body = JSON.parse(payload) as { type?: unknown; id?: unknown; created_at?: unknown; data?: unknown };
  const data =
    body.data !== null && typeof body.data === 'object' && !Array.isArray(body.data)
      ? idsOnly(body.data as Record<string, unknown>)
      : {};
  return JSON.stringify({ type: body.type, id: body.id, created_at: body.created_at, data: { ...data, erased: true } });
}
