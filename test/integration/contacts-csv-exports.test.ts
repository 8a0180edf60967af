import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { request } from './support/api.js';
import { createTestClient } from './support/clients.js';

/**
 * POST /client/contacts/bulk/csv with the files other tools export, as they come (test/fixtures/csv): each imports
 * without edits and `meta.column_mapping` says how every header was understood (csv-aliases.ts).
 */
function upload(key: string, file: string | Uint8Array, fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([file], { type: 'text/csv' }), 'export.csv');
  return request('POST', '/client/contacts/bulk/csv', { key, rawBody: form });
}
const fixture = (name: string) => readFileSync(new URL(`../fixtures/csv/${name}`, import.meta.url));
const getContact = async (key: string, email: string) =>
  (await request('GET', `/client/contacts/${encodeURIComponent(email)}`, { key })).body.data;
const column = (header: string, field: string | null, source: string) => ({ header, field, source });

describe("POST /client/contacts/bulk/csv with other tools' exports", () => {
  it('imports a Mailchimp audience export as it comes, field by field, and says how it read each column', async () => {
    // Prepare
    const { api_key: key } = await createTestClient();

    // Act
    const res = await upload(key, fixture('mailchimp-audience-export.csv'));

    // Assess
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ created: 3, updated: 0, unchanged: 0, failed: 0 });
    const mc = 'alias:mailchimp';
    expect(res.body.meta.column_mapping).toEqual([
      column('Email Address', 'email', mc),
      column('First Name', 'first_name', 'field'),
      column('Last Name', 'last_name', 'field'),
      column('Address', 'custom_fields.address', mc),
      column('Phone Number', 'phone', mc),
      column('Birthday', 'custom_fields.birthday', mc),
      column('Company', 'company', 'field'),
      column('MEMBER_RATING', 'custom_fields.member_rating', mc),
      column('OPTIN_TIME', null, mc),
      column('OPTIN_IP', null, mc),
      column('CONFIRM_TIME', null, mc),
      column('CONFIRM_IP', null, mc),
      column('LATITUDE', null, mc),
      column('LONGITUDE', null, mc),
      column('GMTOFF', null, mc),
      column('DSTOFF', null, mc),
      column('TIMEZONE', 'timezone', 'field'),
      column('CC', 'custom_fields.country_code', mc),
      column('REGION', 'custom_fields.region', mc),
      column('LAST_CHANGED', null, mc),
      column('LEID', null, mc),
      column('EUID', 'external_id', mc),
      column('NOTES', null, mc),
      column('TAGS', 'custom_fields.tags', mc),
    ]);
    expect(res.body.meta.ignored_columns).toEqual([
      'OPTIN_TIME',
      'OPTIN_IP',
      'CONFIRM_TIME',
      'CONFIRM_IP',
      'LATITUDE',
      'LONGITUDE',
      'GMTOFF',
      'DSTOFF',
      'LAST_CHANGED',
      'LEID',
      'NOTES',
    ]);
    expect(await getContact(key, 'ada.lovelace@example.com')).toMatchObject({
      first_name: 'Ada',
      last_name: 'Lovelace',
      phone: '+44 20 7946 0018',
      company: 'Analytical Engines Ltd',
      timezone: 'Europe/London',
      external_id: '3f9a1c2b7e',
      source: 2,
      custom_field_values: {
        address: "12 St James's Square  London    SW1Y 4JH  GB",
        birthday: '12/10',
        member_rating: '4',
        country_code: 'GB',
        region: 'ENG',
        tags: '"VIP","Newsletter"',
      },
    });
    expect(await getContact(key, 'grace.hopper@example.org')).toMatchObject({
      phone: null,
      company: null,
      timezone: 'America/New_York',
      external_id: '8c01d4e6a9',
    });
    const katherine = await getContact(key, 'katherine.johnson@example.net');
    expect(katherine).toMatchObject({ first_name: 'Katherine', timezone: null, external_id: 'b72e95f310' });
    expect(katherine.custom_field_values).toEqual({ birthday: '08/26', member_rating: '2' });
  });

  it('imports a HubSpot contacts export, reading its time zone slugs', async () => {
    const { api_key: key } = await createTestClient();

    const res = await upload(key, fixture('hubspot-contacts-export.csv'));

    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ created: 3, failed: 0 });
    const hs = 'alias:hubspot';
    expect(res.body.meta.column_mapping).toEqual([
      column('Record ID', 'external_id', hs),
      column('First Name', 'first_name', 'field'),
      column('Last Name', 'last_name', 'field'),
      column('Email', 'email', 'field'),
      column('Phone Number', 'phone', hs),
      column('Mobile Phone Number', 'custom_fields.mobile_phone', hs),
      column('Company Name', 'company', hs),
      column('Job Title', 'custom_fields.job_title', hs),
      column('Lifecycle Stage', 'custom_fields.lifecycle_stage', hs),
      column('Lead Status', null, 'unknown'),
      column('Contact owner', null, 'unknown'),
      column('Create Date', null, hs),
      column('Last Activity Date', null, hs),
      column('Time Zone', 'timezone', 'field'),
      column('City', 'custom_fields.city', hs),
      column('State/Region', 'custom_fields.region', hs),
      column('Country/Region', 'custom_fields.country', hs),
      column('Original Source', 'signup_source', hs),
    ]);
    expect(await getContact(key, 'marcus.webb@example.com')).toMatchObject({
      first_name: 'Marcus',
      last_name: 'Webb',
      phone: '+1 617 555 0134',
      company: 'Webb & Daughters',
      timezone: 'America/New_York',
      external_id: '51',
      signup_source: 'Organic Search',
      custom_field_values: {
        mobile_phone: '+1 617 555 0199',
        job_title: 'Head of Operations',
        lifecycle_stage: 'Customer',
        city: 'Boston',
        region: 'Massachusetts',
        country: 'United States',
      },
    });
    expect(await getContact(key, 'sofia.rossi@example.it')).toMatchObject({
      timezone: 'Europe/Rome',
      company: 'Rossi Design Srl',
      external_id: '53',
    });
    expect(await getContact(key, 'tia.nguyen@example.com')).toMatchObject({
      timezone: null,
      phone: null,
      signup_source: 'Direct Traffic',
    });
  });

  it('imports a Brevo contacts export (semicolons), its EXT_ID as client_contact_id', async () => {
    const { api_key: key } = await createTestClient();

    const res = await upload(key, fixture('brevo-contacts-export.csv'), { delimiter: ';' });

    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ created: 3, failed: 0 });
    const br = 'alias:brevo';
    expect(res.body.meta.column_mapping).toEqual([
      column('CONTACT ID', 'external_id', br),
      column('EMAIL', 'email', 'field'),
      column('LASTNAME', 'last_name', 'field'),
      column('FIRSTNAME', 'first_name', 'field'),
      column('WHATSAPP', 'custom_fields.whatsapp', br),
      column('SMS', 'phone', br),
      column('DOUBLE_OPT-IN', null, 'unknown'),
      column('OPT_IN', null, 'unknown'),
      column('LANDLINE_NUMBER', 'custom_fields.landline_number', br),
      column('EXT_ID', 'client_contact_id', br),
      column('CONTACT_TIMEZONE', 'timezone', br),
      column('JOB_TITLE', 'custom_fields.job_title', br),
      column('LINKEDIN', null, 'unknown'),
      column('ADDED_TIME', null, br),
      column('MODIFIED_TIME', null, br),
    ]);
    expect(await getContact(key, 'camille.durand@example.fr')).toMatchObject({
      first_name: 'Camille',
      last_name: 'Durand',
      phone: '+33612345678',
      timezone: 'Europe/Paris',
      client_contact_id: 'crm-1042',
      external_id: '12',
      custom_field_values: { job_title: 'Office manager' },
    });
    expect(await getContact(key, 'lukas.schmidt@example.de')).toMatchObject({
      timezone: 'Europe/Berlin',
      client_contact_id: 'crm-1043',
      custom_field_values: { whatsapp: '+4915123456789', landline_number: '+49 30 1234567' },
    });
    expect(await getContact(key, 'ana.garcia@example.es')).toMatchObject({
      first_name: 'Ana',
      last_name: 'García',
      client_contact_id: null,
      external_id: '14',
    });
  });

  it('imports a Klaviyo profiles export', async () => {
    const { api_key: key } = await createTestClient();

    const res = await upload(key, fixture('klaviyo-profiles-export.csv'));

    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ created: 3, failed: 0 });
    const kl = 'alias:klaviyo';
    expect(res.body.meta.column_mapping).toEqual([
      column('Email', 'email', 'field'),
      column('Klaviyo ID', 'external_id', kl),
      column('First Name', 'first_name', 'field'),
      column('Last Name', 'last_name', 'field'),
      column('Organization', 'company', kl),
      column('Title', 'custom_fields.job_title', kl),
      column('Phone Number', 'phone', kl),
      column('Address', 'custom_fields.address', kl),
      column('Address 2', 'custom_fields.address_2', kl),
      column('City', 'custom_fields.city', kl),
      column('State / Region', 'custom_fields.region', kl),
      column('Country', 'custom_fields.country', kl),
      column('Zip Code', 'custom_fields.postal_code', kl),
      column('Latitude', null, kl),
      column('Longitude', null, kl),
      column('Source', null, 'unknown'),
      column('Email Marketing Consent', null, 'unknown'),
      column('Timezone', 'timezone', 'field'),
      column('Profile Created On', null, kl),
      column('Date Added', null, kl),
    ]);
    expect(await getContact(key, 'noor.haddad@example.com')).toMatchObject({
      first_name: 'Noor',
      last_name: 'Haddad',
      company: 'Cedar Goods',
      phone: '+14155550142',
      timezone: 'America/Los_Angeles',
      external_id: '01HQ3Z5X8Y2N4K7M9P6R1T0VWS',
      custom_field_values: {
        job_title: 'Buyer',
        address: '500 Howard St',
        address_2: 'Suite 300',
        city: 'San Francisco',
        region: 'California',
        country: 'United States',
        postal_code: '94105',
      },
    });
    expect(await getContact(key, 'lea.martin@example.fr')).toMatchObject({
      first_name: 'Léa',
      timezone: null,
      external_id: '01HS0A1B2C3D4E5F6G7H8J9K0M',
    });
  });

  it('imports a Stripe customers export, splitting Name at the first space', async () => {
    const { api_key: key } = await createTestClient();

    const res = await upload(key, fixture('stripe-customers-export.csv'));

    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ created: 3, failed: 0 });
    const st = 'alias:stripe';
    expect(res.body.meta.column_mapping).toEqual([
      column('id', 'external_id', st),
      column('Description', 'custom_fields.description', st),
      column('Email', 'email', 'field'),
      column('Name', 'first_name+last_name', st),
      column('Phone', 'phone', 'field'),
      column('Created (UTC)', null, st),
      column('Delinquent', null, 'unknown'),
      column('Total Spend', null, 'unknown'),
      column('Payment Count', null, 'unknown'),
      column('Refunded Volume', null, 'unknown'),
      column('Dispute Losses', null, 'unknown'),
      column('plan (metadata)', null, 'unknown'),
    ]);
    expect(await getContact(key, 'grace.h@example.com')).toMatchObject({
      first_name: 'Grace',
      last_name: 'Hopper',
      phone: '+1 202 555 0147',
      external_id: 'cus_PQx7aB2cD3eF4g',
      custom_field_values: { description: 'Annual plan since launch' },
    });
    expect(await getContact(key, 'alan.turing@example.co.uk')).toMatchObject({
      first_name: 'Alan',
      last_name: 'Mathison Turing',
      phone: null,
    });
    expect(await getContact(key, 'billing@example.org')).toMatchObject({
      first_name: null,
      last_name: null,
      external_id: 'cus_PSz9cD4eF5gH6i',
    });
  });

  it('refuses an export with two columns for one field with 422 naming both, and writes nothing', async () => {
    const { api_key: key } = await createTestClient();
    const csv = '"Email Address","First Name",Email\nboth@example.com,Bo,both@example.com\n';

    const res = await upload(key, csv);

    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ success: false, data: {} });
    expect(res.body.errors).toEqual([
      {
        condition: 'format',
        key: 'file',
        error: 'Columns "Email Address" and "Email" both map to email; remove or rename one of them',
      },
    ]);
    expect((await request('GET', '/client/contacts/both%40example.com', { key })).status).toBe(404);
  });
});
