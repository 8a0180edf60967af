import type { TemplateRecord } from '../../../shared/domain/templates/template-store.js';
import type { CustomizationAuditRecord } from '../../../shared/domain/workflows/customization.js';
import { AT } from './support.js';

let nextId = 1000;

/** A client template (type 2) with a fresh id; `fields` replace the defaults. */
export function clientTemplate(clientId: number, fields: Partial<TemplateRecord> = {}): TemplateRecord {
  const id = nextId++;
  return {
    id,
    client_id: clientId,
    type: 2,
    name: `Template ${id}`,
    subject: 'Hi <%= it.contact.first_name %>',
    preview_text: '',
    html_body: '<p>Hello</p>',
    text_body: 'Hello',
    created_at: AT,
    updated_at: AT,
    ...fields,
  };
}

/** An audit record of `workflowId` at `at` (no override before or after). */
export const audit = (workflowId: number, at: string, id: string): CustomizationAuditRecord => {
  const none = {
    template_id: null,
    delay_minutes: null,
    priority_score: null,
    preferred_send_hour: null,
    preferred_send_minute: null,
    send_time_mode: 0 as const,
  };
  return {
    id,
    workflow_id: workflowId,
    key_id: 1,
    auth_method: 'api_key',
    request_id: null,
    at,
    before: none,
    after: none,
  };
};
