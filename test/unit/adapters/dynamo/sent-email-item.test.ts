import { describe, expect, it } from 'vitest';
import {
  BODIES_ATTRIBUTE,
  sentEmailAttributes,
  sentEmailOf,
} from '../../../../shared/adapters/dynamo/sent-email-item.js';
import { keys } from '../../../../shared/adapters/dynamo/keys.js';
import type { ClientRecord } from '../../../../shared/domain/clients/client-store.js';
import { SENT_STATUS, type SentEmailRecord } from '../../../../shared/domain/sent-emails/sent-email-record.js';
import { renderEmail } from '../../../../shared/domain/templates/render-email.js';
import { SYSTEM_TEMPLATES } from '../../../../shared/domain/templates/system-templates.js';
import { contactRecord } from '../../support/contact-fixtures.js';
import { itemBytes, writeUnits } from '../../../../scripts/bench/stats-cost.js';

/** A system workflow's e-mail as the sender renders it: the layout, the copy, the links. */
function renderedRecord(): SentEmailRecord {
  const template = SYSTEM_TEMPLATES[0]!;
  const contact = contactRecord({ first_name: 'Ann', email: 'ann@example.test' });
  const email = renderEmail({
    template,
    contact,
    branding: {
      settings: { brand_name: 'Acme Mail', email_reply_to: 'help@acme.test' },
      client: { id: 7, name: 'Acme', email: 'ops@acme.test' } as ClientRecord,
      links: {
        publicBaseUrl: 'https://svc.example',
        unsubscribeUrl: 'https://svc.example/u/2b7e151628aed2a6abf7158809cf4f3c',
      },
    },
  });
  return {
    id: '6f1c1a52-2f44-4b8e-9a57-0d6c2a7e8a11',
    client_id: 7,
    contact_id: contact.id,
    execution_id: 42,
    workflow_id: 1,
    email_template_id: template.id,
    email_template_name: template.name,
    from_email: 'Acme <hello@acme.test>',
    to_email: contact.email,
    subject: email.subject,
    html_body: email.html,
    text_body: email.text,
    browser_url: 'https://svc.example/e/6f1c1a52-2f44-4b8e-9a57-0d6c2a7e8a11',
    status: SENT_STATUS.queued,
    status_updated_at: '2026-11-29T09:00:00.000Z',
    created_at: '2026-11-29T09:00:00.000Z',
  };
}

describe('the stored sent e-mail', () => {
  it('reads back the record it was written from, bodies included', () => {
    // Prepare
    const record = renderedRecord();

    // Act
    const item: Record<string, unknown> = { ...keys.sentEmail(7, record.id), ...sentEmailAttributes(record) };

    // Assess
    expect(item).not.toHaveProperty('html_body');
    expect(item).not.toHaveProperty('text_body');
    expect(item[BODIES_ATTRIBUTE]).toBeInstanceOf(Uint8Array);
    expect(sentEmailOf(item)).toEqual(record);
  });

  it('stores a rendered e-mail in under half the bytes, so each transactional write of it costs fewer units', () => {
    // Prepare
    const record = renderedRecord();

    // Act
    const plain = itemBytes({ ...keys.sentEmail(7, record.id), ...record });
    const stored = itemBytes({ ...keys.sentEmail(7, record.id), ...sentEmailAttributes(record) });

    // Assess
    expect(plain).toBeGreaterThan(3_000);
    expect(stored).toBeLessThan(plain * 0.45);
    expect(writeUnits(stored, true)).toBeLessThan(writeUnits(plain, true));
  });

  it('reads an item written before the bodies were compressed, and an erased one, as stored', () => {
    // Prepare
    const record = renderedRecord();
    const older = { ...keys.sentEmail(7, record.id), ...record };
    const erased = { ...older, html_body: '', text_body: '', to_email: '', erased_at: '2026-11-30T00:00:00.000Z' };

    // Act / Assess
    expect(sentEmailOf(older)).toEqual(record);
    expect(sentEmailOf(erased)).toMatchObject({ html_body: '', text_body: '', to_email: '' });
  });

  it('keeps characters outside ASCII in either body', () => {
    // Prepare
    const record = { ...renderedRecord(), html_body: '<p>Grüße, 你好 — 👋</p>', text_body: 'Grüße, 你好 — 👋' };

    // Act
    const read = sentEmailOf({ ...keys.sentEmail(7, record.id), ...sentEmailAttributes(record) });

    // Assess
    expect(read.html_body).toBe(record.html_body);
    expect(read.text_body).toBe(record.text_body);
  });
});
