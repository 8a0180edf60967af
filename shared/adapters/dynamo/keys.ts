/**
 * Every key of the single table is built here and nowhere else.
 *
 * Access patterns (pk / sk):
 * - id counter            COUNTER / <entity>                       ADD n reserves a block of ids
 * - client profile        CLIENT#<id> / PROFILE
 * - client settings       CLIENT#<id> / SETTINGS
 * - api key               APIKEY#<sha256(key)> / APIKEY            gsi1: CLIENT#<id>#APIKEY / <key id>
 * - contact               CLIENT#<id> / CONTACT#<id>
 * - e-mail lock           CLIENT#<id> / EMAIL#<lower(email)>       → contact id
 * - uid lock              CLIENT#<id> / UID#<client_contact_id>    → contact id
 * - custom field name     CLIENT#<id> / CFIELD#<name>              → per-client field id
 * - template              CLIENT#<id> | SYSTEM / TEMPLATE#<id>
 * - customization         CLIENT#<id> / WORKFLOW#<wid>             overrides + clone marker (clone_template_id);
 *                                                                  audit: WORKFLOW#<wid>#AUDIT#<ts>#<n>
 * - quota counter         CLIENT#<id> / QUOTA#M#<yyyy-mm>          e-mails sent that UTC month (`sent`, ADD)
 *                         CLIENT#<id> / QUOTA#D#<yyyy-mm-dd>       e-mails sent that UTC day (`sent`, ADD)
 * - all clients (admin)   gsi1: CLIENTS / CLIENT#<id>
 */
export interface ItemKey {
  pk: string;
  sk: string;
}

const pad = (n: number, width = 12): string => n.toString().padStart(width, '0');

export const clientPk = (clientId: number): string => `CLIENT#${clientId}`;

export const keys = {
  counter: (entity: string): ItemKey => ({ pk: 'COUNTER', sk: entity }),

  clientProfile: (clientId: number): ItemKey => ({ pk: clientPk(clientId), sk: 'PROFILE' }),
  /** gsi1 entry that lists every client (admin CLI). */
  clientListing: (clientId: number) => ({ gsi1pk: 'CLIENTS', gsi1sk: `CLIENT#${pad(clientId)}` }),
  clientListingPk: 'CLIENTS',

  settings: (clientId: number): ItemKey => ({ pk: clientPk(clientId), sk: 'SETTINGS' }),

  apiKey: (keyHash: string): ItemKey => ({ pk: `APIKEY#${keyHash}`, sk: 'APIKEY' }),
  apiKeyListing: (clientId: number, keyId: number) => ({
    gsi1pk: `CLIENT#${clientId}#APIKEY`,
    gsi1sk: pad(keyId),
  }),

  contact: (clientId: number, contactId: number): ItemKey => ({
    pk: clientPk(clientId),
    sk: `CONTACT#${pad(contactId)}`,
  }),
  contactSkPrefix: 'CONTACT#',
  emailLock: (clientId: number, email: string): ItemKey => ({
    pk: clientPk(clientId),
    sk: `EMAIL#${email.toLowerCase()}`,
  }),
  uidLock: (clientId: number, clientContactId: string): ItemKey => ({
    pk: clientPk(clientId),
    sk: `UID#${clientContactId}`,
  }),
  customField: (clientId: number, name: string): ItemKey => ({ pk: clientPk(clientId), sk: `CFIELD#${name}` }),

  template: (owner: number | 'SYSTEM', templateId: number): ItemKey => ({
    pk: owner === 'SYSTEM' ? 'SYSTEM' : clientPk(owner),
    sk: `TEMPLATE#${pad(templateId)}`,
  }),
  templateSkPrefix: 'TEMPLATE#',

  customization: (clientId: number, workflowId: number): ItemKey => ({
    pk: clientPk(clientId),
    sk: `WORKFLOW#${pad(workflowId, 4)}`,
  }),
  customizationAudit: (clientId: number, workflowId: number, at: string, seq: string): ItemKey => ({
    pk: clientPk(clientId),
    sk: `WORKFLOW#${pad(workflowId, 4)}#AUDIT#${at}#${seq}`,
  }),
  customizationAuditPrefix: (workflowId: number): string => `WORKFLOW#${pad(workflowId, 4)}#AUDIT#`,

  /** `month` is `yyyy-mm` (UTC). */
  quotaMonth: (clientId: number, month: string): ItemKey => ({ pk: clientPk(clientId), sk: `QUOTA#M#${month}` }),
  /** `day` is `yyyy-mm-dd` (UTC). */
  quotaDay: (clientId: number, day: string): ItemKey => ({ pk: clientPk(clientId), sk: `QUOTA#D#${day}` }),
} as const;
