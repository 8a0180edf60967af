import { inject } from 'vitest';
import { createContainer } from '../../../shared/composition/container.js';
import { ids } from '../../../shared/composition/providers/ids.js';
import { templateStore } from '../../../shared/composition/providers/template-store.js';
import { loadConfig } from '../../../shared/config.js';
import { nextClientTemplateId } from '../../../shared/domain/templates/create-template.js';
import { TEMPLATE_TYPES } from '../../../shared/domain/templates/template-store.js';
import { call } from './api.js';

let container: ReturnType<typeof createContainer> | undefined;
const store = () =>
  (container ??= createContainer({
    config: loadConfig({
      ...process.env,
      AWS_ENDPOINT_URL_DYNAMODB: inject('dynamoEndpoint'),
      TABLE_NAME: inject('tableName'),
    }),
  }));

/**
 * A client template whose HTML the save check refuses (a script), written straight into the table as content stored
 * before the check would be, and made the welcome workflow's template: the next signup sends it.
 */
export async function storeUnsafeWelcome(client: { id: number; api_key: string }, html: string): Promise<number> {
  const id = await nextClientTemplateId(store().use(ids));
  const at = new Date().toISOString();
  await store().use(templateStore).create({
    id,
    client_id: client.id,
    type: TEMPLATE_TYPES.client,
    name: 'Stored before the check',
    subject: 'Hello',
    preview_text: '',
    html_body: html,
    text_body: 'Hello',
    created_at: at,
    updated_at: at,
  });
  const customized = await call('PATCH', '/client/workflows/1/customization', {
    key: client.api_key,
    body: { template_id: id },
  });
  if (customized.status !== 200) throw new Error(`customization answered ${customized.status}: ${customized.text}`);
  return id;
}

/** Sends the welcome e-mail to a new contact (a sync signup) and returns the sent e-mail (JSON view). */
export async function sendWelcome(
  key: string,
  email: string,
): Promise<{ id: string; browser_url: string; html_body: string }> {
  const event = await call('POST', '/client/events?sync=true', {
    key,
    body: { type: 'signup', email, auto_create_contact: true },
  });
  if (event.status !== 201) throw new Error(`the signup answered ${event.status}: ${event.text}`);
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const executions = await call('GET', '/client/executions?workflow_id=1&per_page=100', { key });
    const sentId = (executions.body.data.executions as { contact_id: number; sent_email_id: string | null }[]).find(
      (e) => e.contact_id === event.body.data.contact_id && e.sent_email_id,
    )?.sent_email_id;
    if (sentId) return (await call('GET', `/client/sent-emails/${sentId}`, { key })).body.data;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no welcome e-mail was sent to ${email}`);
}
