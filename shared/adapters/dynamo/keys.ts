import { createHash } from 'node:crypto';

/**
 * Every key of the single table is built here and nowhere else.
 *
 * Access patterns (pk / sk):
 * - id counter            COUNTER / <entity>                       ADD n reserves a block of ids
 * - client profile        CLIENT#<id> / PROFILE
 * - client settings       CLIENT#<id> / SETTINGS
 * - api key               APIKEY#<sha256(key)> / APIKEY            gsi1: CLIENT#<id>#APIKEY / <key id>
 * - custom field name     CLIENT#<id> / CFIELD#<name>              → per-client field id
 * - template              CLIENT#<id> | SYSTEM / TEMPLATE#<id>
 * - customization         CLIENT#<id> / WORKFLOW#<wid>             overrides + clone marker (clone_template_id);
 *                                                                  audit: WORKFLOW#<wid>#AUDIT#<ts>#<n>
 * - all clients (admin)   gsi1: CLIENTS / CLIENT#<id>
 * - topics                CLIENT#<id> / TOPICS                     every topic of the client in one item, `version`
 *                                                                  and `next_id` (at most 20)
 * - webhook endpoint      CLIENT#<id> / WEBHOOK#<id>               url, event types, signing secrets
 * - webhook message       WHMSG#<client>#<message id> / WHMSG      one event's signed body, kept for replays; TTL 30 days;
 *                                                                    gsi2 (contact history): CONTACT#<client>#<contact> /
 *                                                                    WHMSG#<created_at>#<message id> (the erasure's)
 * - webhook attempt       WHATT#<client>#<webhook id> / <attempt id>   one delivery attempt; ids are time-ordered, so one
 *                                                                    Query reads an endpoint's attempts newest first;
 *                                                                    TTL 30 days; gsi2: WHMSG#<client>#<message id> /
 *                                                                    WHATT#<webhook id>#<attempt id> (a message's
 *                                                                    attempts, for the erasure)
 * - webhook replay window WHREPLAY#<client>#<webhook id> / <hour start, epoch s>   `n` replays of the endpoint in
 *                                                                    that hour (the cap); TTL an hour on; the attempt
 *                                                                    item counts its own replays (`replays`)
 * - webhook count         CLIENT#<id> / WEBHOOKS                   `n` endpoints; the create/delete transactions keep
 *                                                                  it, so the per-client limit holds under concurrency
 * - sending domain        CLIENT#<id> / DOMAIN#<id>                 a claim and its state, entity `domain`; gsi3 while
 *                                                                  being checked: DOMAINCHECK / <next check>#<client>#<id>
 *                                                                  (sparse, keys only; the poller's view)
 * - domain name (client)  CLIENT#<id> / DOMAINNAME#<domain>         → domain id: one claim of a name per client
 * - domain count          CLIENT#<id> / DOMAINS                     `n` claims; the create/delete transactions keep it
 * - domain proof          DOMAINCLAIM#<domain> / DOMAINCLAIM        → client id, domain id: who proved the name (one
 *                                                                  client across the service)
 * - sender state          CLIENT#<id> / SENDER                      verified domains, SES tenant, tenant pause; entity
 *                                                                  `sender`; read with the settings
 * - journey               CLIENT#<id> / JOURNEY#<jid>               head: name, status, live version, draft and its
 *                                                                  `draft_version`; entity `journey`
 * - journey version       CLIENT#<id> / JOURNEY#<jid>#V#<v>         an immutable published definition and its moves
 * - journey index         CLIENT#<id> / JOURNEYINDEX                every live or paused journey compiled (trigger,
 *                                                                  entry, settings, awaited events); `version`; read
 *                                                                  with the settings by processing and the executor
 * - journey count         CLIENT#<id> / JOURNEYS                    `n` journeys not archived, `next_id` (from 1000),
 *                                                                  `j_<jid>` each journey's summary (the list reads
 *                                                                  this one item; every journey write moves its own)

 * - segment               CLIENT#<id> / SEGMENT#<pad6 sid>          entity `segment`: name, definition, version, status
 *                                                                  (building | ready), backfill; gsi3 while building:
 *                                                                  SEGJOB / <beat_at>#<client>#<pad6 sid> (sparse,
 *                                                                  keys only: the stale-backfill net)
 * - segment count         CLIENT#<id> / SEGMENTS                    `n`, `next_id` (from 1), each segment's summary
 * - segment index         CLIENT#<id> / SEGMENTINDEX                every segment compiled at its current version
 * - segment's broadcasts  CLIENT#<id> / SEGUSE#<pad6 sid>           `b` broadcast ids scheduled to it, `n` schedules
 *                                                                  (trees, event specs, watched attributes); `version`;
 *                                                                  read through the config cache
 * - broadcast             CLIENT#<id> / BROADCAST#<pad8 bid>         entity `broadcast`: definition, status, schedule,
 *                                                                  snapshot progress; gsi3 while scheduled..paused:
 *                                                                  BCASTLIVE#<bid mod 4> / <next check>#<client>#<pad8
 *                                                                  bid> (sparse, keys only: the lost-chain sweep)
 * - broadcast count       CLIENT#<id> / BROADCASTS                  `next_id`, broadcasts sending now *
 * Contacts and engine items get a partition key of their own (docs/capacity.md): at 200 events/s, 200 sends/s and a
 * 1 000-row import a second one client's `CLIENT#<id>` partition would take far more than DynamoDB's 1 000 WCU/s per
 * partition key value. `CLIENT#<id>` keeps only the client's configuration, which is written rarely.
 * - contact               CONTACT#<client>#<id> / CONTACT           gsi1: CLIENT#<client>#CONTACTS#<id mod 8> / <id>
 *                                                                    (the client's contacts by id, 8 shards)
 * - e-mail lock           EMAIL#<client>#<sha256(lower(email))> / EMAIL  → contact id; after an erasure of a bounced or
 *                                                                    complained address: a suppression marker (no
 *                                                                    contact id, `suppressed` reason): no address in a key
 * - erased contact        CONTACT#<client>#<id> / ERASED            the tombstone an erasure leaves (no personal data)
 * - contact history       gsi2 (KEYS_ONLY): CONTACT#<client>#<id> / <EVENT|EXEC|SENT>#<created_at>#<id> on events
 *                                                                    (once processed), executions and sent e-mails;
 *                                                                    read whole by the erasure, one range per kind by
 *                                                                    the activity timeline (newest first, merged)
 * - uid lock              UID#<client>#<client_contact_id> / UID     → contact id
 * - event                 EVENT#<client>#<id> / EVENT                gsi1 while queued: EVENTS#QUEUED#<shard> /
 *                                                                    <created_at> (sparse; the sweeper's view)
 * - idempotency lock      IDEM#<client>#<sha256(key)> / IDEM         → event id + request hash; TTL 30 days
 * - execution             EXEC#<client>#<id> / EXEC                  gsi1: CLIENT#<client>#EXEC#<shard> /
 *                                                                    <created_at>#<id> (newest first, 8 shards)
 *                                                                    gsi3 while pending: EXECUTING#<id mod 8> /
 *                                                                    <scheduled_for (1) | updated_at (2)>#<client>#<id>
 *                                                                    (sparse, keys only; the stuck-execution sweep)
 * - sent e-mail           SENT#<client>#<uuid> / SENT                logs: SENT#<client>#<uuid> / LOG#<ts>#<log id>;
 *                                                                    counted engagement: … / COUNTED#open|click
 * - provider message id   MSG#<provider message id> / MSG            → client id, sent e-mail id
 * - quota counter         QUOTA#<client>#<yyyy-mm>[#<shard>] / QUOTA   `sent` (month) and `d<DD>` (day), UTC
 * - per-contact day cap   CAP#<client>#<contact>#<local yyyy-mm-dd> / CAP   TTL 3 days
 * - deliverability        DELIV#<client>#<yyyy-mm> / DELIV          `b<DD>` permanent bounces, `c<DD>` complaints (UTC days)
 * - client open hours     OPENHOURS#<client> / OPENHOURS         `open_h00`…`open_h23`: human opens by local hour
 * - day counters          STATS#<client>#0 / <yyyy-mm-dd>#W<wid> (one workflow's counters of a UTC day) and
 *                                                                    <yyyy-mm-dd>#E#<event type> (events received),
 *                                                                    <yyyy-mm-dd>#J<pad6 jid>#<step id> (a journey
 *                                                                    step's day) and NOW#J<pad6 jid> (`s_<step>`: runs
 *                                                                    at each step now, no TTL);
 *                                                                    TTL 400 days; written by the stream projection
 * - stream position       STREAMPOS#<projection>#<stream shard> / STREAMPOS   `pos`: last applied record; TTL 2 days
 * - request rate window   RATE#<client>#<policy> / <window start, epoch s>   `n` requests counted; TTL a minute on
 *                                                                    (per-client rate limits)
 * - run                   RUN#<client>#<id> / RUN                    one contact's way through one journey, entity `run`;
 *                                                                    gsi2 (KEYS_ONLY): CONTACT#<client>#<contact> /
 *                                                                    RUN#<created_at>#<id> (erasure); gsi3 while due:
 *                                                                    RUNDUE#<id mod 8> / <due_at>#<client>#<id> (sparse,
 *                                                                    keys only: the stuck-run sweep); TTL 90 days after
 *                                                                    it ended
 * - run lock              RUNLOCK#<client>#<jid>#<contact>[#<sha256(key value)>] / RUNLOCK   the run in flight for
 *                                                                    (contact, key), `active`, `entered_at`: re-entry
 *                                                                    rules; TTL by the rule
 * - contact counters      CONTACT#<client>#<id> / EVCOUNT           entity `contact_counters`: `ev_v`, per event spec
 *                                                                    the newest timestamps (`evs_<spec>`) and the
 *                                                                    all-time count (`evn_<spec>`)
 * - contact engagement    CONTACT#<client>#<id> / ENG#<B<bid>|J<jid>>   entity `contact_engagement`: the contact's
 *                                                                    engagement with one broadcast or journey
 *                                                                    (`sent_at` a broadcast's first send, `opened_at`
 *                                                                    / `clicked_at` the last human open / click)
 * - segment state         CONTACT#<client>#<id> / SEGSTATE          `sv`, `m_<sid>` (the segment version entered under),
 *                                                                    `z`, `next_eval_at`; gsi3 while an edge is ahead:
 *                                                                    SEGDUE#<contact mod 8> / <next_eval_at>#<client>#
 *                                                                    <pad12 contact> (sparse, keys only); no entity
 * - segment member        SEGM#<client>#<pad6 sid>#<contact mod 16> / <pad12 contact>   entity `segment_member`
 * - backfill progress     SEGBF#<client>#<pad6 sid> / <contact shard>   version, `after`, scanned, matched, done
 * - segment gauge         STATS#<client>#0 / NOW#S<pad6 sid>         `n` members (the day-counters projection only)
 * - snapshot shard        BCAST#<client>#<pad8 bid> / SNAP#<source shard>   `after` (the last contact taken), n, done
 * - pacer                 BCAST#<client>#<pad8 bid> / PACER          cursors per due partition, beat_at, done
 * - pace clock            PACE#ALL / PACE · PACE#<client> / PACE     `tat`: the instant up to which sends are reserved
 * - broadcast recipient   EXEC#<client>#<id> / EXEC (an execution with `broadcast_id`): gsi1 BCAST#<client>#<pad8
 *                                                                    bid>#<contact mod 16> / <pad12 contact>#<pad16 id>
 *                                                                    (the recipient list, in place of the client's
 *                                                                    execution listing); gsi3 while waiting for the
 *                                                                    pacer: BDUE#<client>#<pad8 bid>#<s> /
 *                                                                    <scheduled_for>#<pad16 id> (s < S; an A/B
 *                                                                    test's holdouts in S + id mod S until the winner)
 * - broadcast results     STATS#<client>#0 / B<pad8 bid>#T          totals (the day-counters projection only),
 *                         … / B<pad8 bid>#V<k>                        the same per variant of an A/B test's share
 *                         … / B<pad8 bid>#L<sha1(url) 12 hex>         one link's clicks: `url`, `h` people, `m` machines
 * - conversion broadcasts  CLIENT#<id> / BCASTCONV                  `b_<bid>`: {event, window_days, from, until} of each
 *                                                                    broadcast counting conversions (read with the
 *                                                                    configuration by event processing)
 * - per-IP rate window    IPRATE#<sha256(ip, IPv6 by /64)> / <window start, epoch s>   `n` anonymous or failed-
 *                                                                    credential requests; TTL a minute on
 *
 * Dashboard accounts: users are client configuration; what is looked up by a secret or an address has a
 * key of its own, named by its SHA-256 (no address or token in a key).
 * - user                  CLIENT#<id> / USER#<user id>               e-mail, name, role, `session_version`
 * - user count and owner  CLIENT#<id> / USERS                        `n` users, `owner_id`: create/delete/transfer
 *                                                                    move them in their transactions
 * - user's session index  CLIENT#<id> / USERSESSION#<user id>#<sha256(session)>   one per session, TTL (removal and
 *                                                                    role changes find the user's sessions, consistently)
 * - user e-mail lock      USEREMAIL#<sha256(lower(email))> / USEREMAIL  → client id, user id (one account per address)
 * - sign-in link          SIGNIN#<sha256(token)> / SIGNIN            user, client, expiry; TTL; deleted when used
 * - session               SESSION#<sha256(session id)> / SESSION     user, client, role, csrf digest, idle/absolute expiry; TTL
 * - account throttles    SIGNINRATE#<addr_ip|ip|invite_client|invite_to|broadcast_test>#<sha256(value)> / <window start, epoch s>   `n`; TTL
 * - user's API key index  CLIENT#<id> / USERAPIKEY#<user id>#<sha256(key)>   one per key the user created or holds,
 *                                                                    written with the key; removal and demotion read
 *                                                                    them consistently to disable the keys in their
 *                                                                    own transaction
 *
 * The local runtime's stand-ins for DNS and SES identities (devKeys; never written on AWS):
 * - DNS record            DEVDNS#<name> / <TYPE>                     `values`: what a developer "published"
 * - SES identity          DEVSES#IDENTITY#<domain> / IDENTITY        DKIM tokens, MAIL FROM, tenant, created_at
 * - SES tenant            DEVSES#TENANT#<name> / TENANT              associated resources, sending status
 */
export interface ItemKey {
  pk: string;
  sk: string;
}

const pad = (n: number, width = 12): string => n.toString().padStart(width, '0');

/**
 * The item kinds a change-stream reader picks out, named by the `entity` attribute the stores write on the item itself,
 * so a stream filter (the AWS event source mapping's, the local poller's) matches one attribute instead of parsing
 * keys. Updates keep it: a change's new image is the whole item.
 */
export const ENTITY = {
  contact: 'contact',
  event: 'event',
  execution: 'execution',
  sentEmailLog: 'sent_email_log',
  domain: 'domain',
  sender: 'sender',
  journey: 'journey',
  run: 'run',
  segment: 'segment',
  segmentMember: 'segment_member',
  contactCounters: 'contact_counters',
  contactEngagement: 'contact_engagement',
  broadcast: 'broadcast',
} as const;
export type Entity = (typeof ENTITY)[keyof typeof ENTITY];

/**
 * The `pk` prefix of each entity's items written before the `entity` attribute existed (they carry only their keys),
 * so a stream filter lets a change through on either (docs/decisions: the entity attribute). An entity that always
 * carried the attribute has none: `CLIENT#` would let every configuration write through.
 */
export const ENTITY_PK_PREFIX: Readonly<Partial<Record<Entity, string>>> = {
  [ENTITY.contact]: 'CONTACT#',
  [ENTITY.event]: 'EVENT#',
  [ENTITY.execution]: 'EXEC#',
  [ENTITY.sentEmailLog]: 'SENT#',
};

/** The legacy key prefixes of some entities (those that have one), for a stream filter's second rule. */
export const legacyPrefixesOf = (entities: readonly Entity[]): string[] =>
  entities.flatMap((entity) => {
    const prefix = ENTITY_PK_PREFIX[entity];
    return prefix === undefined ? [] : [prefix];
  });

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
    pk: `CONTACT#${clientId}#${contactId}`,
    sk: 'CONTACT',
  }),
  contactShards: 8,
  /** gsi1 entry listing a client's contacts by id, spread over `contactShards` key values (written with the contact). */
  contactListing: (clientId: number, contactId: number) => ({
    gsi1pk: keys.contactListingPk(clientId, contactId % keys.contactShards),
    gsi1sk: pad(contactId),
  }),
  contactListingPk: (clientId: number, shard: number): string => `CLIENT#${clientId}#CONTACTS#${shard}`,
  /** The contact item's keys: table and listing entry. */
  contactItem: (clientId: number, contactId: number) => ({
    ...keys.contact(clientId, contactId),
    ...keys.contactListing(clientId, contactId),
    entity: ENTITY.contact,
  }),
  /** Keyed by a hash so that a suppression marker left by an erasure keeps no address (docs/decisions/0058-contact-erasure.md, erasure). */
  emailLock: (clientId: number, email: string): ItemKey => ({
    pk: `EMAIL#${clientId}#${createHash('sha256').update(email.toLowerCase()).digest('hex')}`,
    sk: 'EMAIL',
  }),
  /** What an erasure leaves in place of the contact: its id, when, nothing personal. */
  erasedContact: (clientId: number, contactId: number): ItemKey => ({
    pk: `CONTACT#${clientId}#${contactId}`,
    sk: 'ERASED',
  }),
  /** gsi2 entry (KEYS_ONLY) that finds a contact's events, executions and sent e-mails when it is erased. */
  contactHistory: (
    clientId: number,
    contactId: number,
    kind: 'EVENT' | 'EXEC' | 'SENT',
    createdAt: string,
    id: number | string,
  ) => ({
    gsi2pk: keys.contactHistoryPk(clientId, contactId),
    gsi2sk: `${kind}#${createdAt}#${typeof id === 'number' ? pad(id, 16) : id}`,
  }),
  contactHistoryPk: (clientId: number, contactId: number): string => `CONTACT#${clientId}#${contactId}`,
  /** The first gsi2 sort key of one kind of a contact's history (the timeline reads each kind from its own range). */
  contactHistoryKindStart: (kind: 'EVENT' | 'EXEC' | 'SENT'): string => `${kind}#`,
  /**
   * A gsi2 sort key bound at `createdAt` (fixed-length ISO times): `through` sorts above every entry of that kind
   * created at or before it, `until` below every entry created at it ('$' follows the '#' before the id).
   */
  contactHistoryAtBound: (kind: 'EVENT' | 'EXEC' | 'SENT', createdAt: string, bound: 'through' | 'until'): string =>
    bound === 'through' ? `${kind}#${createdAt}$` : `${kind}#${createdAt}`,
  /** What a gsi2 sort key names: its kind, creation time and id (a number for events and executions); undefined otherwise. */
  contactHistoryOf: (
    gsi2sk: string,
  ): { kind: 'EVENT' | 'EXEC' | 'SENT'; createdAt: string; id: number | string } | undefined => {
    const match = /^(EVENT|EXEC|SENT)#([^#]+)#([^#]+)$/.exec(gsi2sk);
    if (!match) return undefined;
    const [, kind, createdAt, id] = match as unknown as [string, 'EVENT' | 'EXEC' | 'SENT', string, string];
    return { kind, createdAt, id: kind === 'SENT' ? id : Number(id) };
  },
  uidLock: (clientId: number, clientContactId: string): ItemKey => ({
    pk: `UID#${clientId}#${clientContactId}`,
    sk: 'UID',
  }),
  customField: (clientId: number, name: string): ItemKey => ({ pk: clientPk(clientId), sk: `CFIELD#${name}` }),

  template: (owner: number | 'SYSTEM', templateId: number): ItemKey => ({
    pk: owner === 'SYSTEM' ? 'SYSTEM' : clientPk(owner),
    sk: `TEMPLATE#${pad(templateId)}`,
  }),
  templateSkPrefix: 'TEMPLATE#',

  topics: (clientId: number): ItemKey => ({ pk: clientPk(clientId), sk: 'TOPICS' }),
  webhook: (clientId: number, webhookId: number): ItemKey => ({
    pk: clientPk(clientId),
    sk: `WEBHOOK#${pad(webhookId)}`,
  }),
  webhookSkPrefix: 'WEBHOOK#',
  webhookCount: (clientId: number): ItemKey => ({ pk: clientPk(clientId), sk: 'WEBHOOKS' }),

  domain: (clientId: number, domainId: number): ItemKey => ({ pk: clientPk(clientId), sk: `DOMAIN#${pad(domainId)}` }),
  domainSkPrefix: 'DOMAIN#',
  /** One claim of a name per client: → domain id. */
  domainName: (clientId: number, domain: string): ItemKey => ({ pk: clientPk(clientId), sk: `DOMAINNAME#${domain}` }),
  domainCount: (clientId: number): ItemKey => ({ pk: clientPk(clientId), sk: 'DOMAINS' }),
  /** Who proved a name, across every client: the first proof takes it, and only its holder's delete frees it. */
  domainClaim: (domain: string): ItemKey => ({ pk: `DOMAINCLAIM#${domain}`, sk: 'DOMAINCLAIM' }),
  /** The client's sending state (verified domains, SES tenant, its pause), read with the settings. */
  sender: (clientId: number): ItemKey => ({ pk: clientPk(clientId), sk: 'SENDER' }),
  /** Sparse gsi3 entry of a domain still being checked, by its next check; moved with it, removed when it settles. */
  domainCheckEntry: (clientId: number, domainId: number, nextCheckAt: string) => ({
    gsi3pk: keys.domainCheckPk,
    gsi3sk: `${nextCheckAt}#${clientId}#${pad(domainId)}`,
  }),
  domainCheckPk: 'DOMAINCHECK',

  journey: (clientId: number, journeyId: number): ItemKey => ({
    pk: clientPk(clientId),
    sk: `JOURNEY#${pad(journeyId, 6)}`,
  }),
  journeyVersion: (clientId: number, journeyId: number, version: number): ItemKey => ({
    pk: clientPk(clientId),
    sk: `${keys.journeyVersionPrefix(journeyId)}${pad(version, 6)}`,
  }),
  /** The sort key prefix of one journey's versions (a Query reads them newest first). */
  journeyVersionPrefix: (journeyId: number): string => `JOURNEY#${pad(journeyId, 6)}#V#`,
  /** The sort key prefix of the client's journey heads and versions (heads have no `#V#`). */
  journeySkPrefix: 'JOURNEY#',
  journeyIndex: (clientId: number): ItemKey => ({ pk: clientPk(clientId), sk: 'JOURNEYINDEX' }),
  journeyCount: (clientId: number): ItemKey => ({ pk: clientPk(clientId), sk: 'JOURNEYS' }),

  segment: (clientId: number, segmentId: number): ItemKey => ({
    pk: clientPk(clientId),
    sk: `${keys.segmentSkPrefix}${pad(segmentId, 6)}`,
  }),
  segmentSkPrefix: 'SEGMENT#',
  segmentCount: (clientId: number): ItemKey => ({ pk: clientPk(clientId), sk: 'SEGMENTS' }),
  segmentIndex: (clientId: number): ItemKey => ({ pk: clientPk(clientId), sk: 'SEGMENTINDEX' }),
  /** The broadcasts ever scheduled to a segment (`b`, a number set) and how many times one was (`n`). */
  segmentBroadcastUses: (clientId: number, segmentId: number): ItemKey => ({
    pk: clientPk(clientId),
    sk: `SEGUSE#${pad(segmentId, 6)}`,
  }),
  /** Sparse gsi3 entry of a segment whose backfill runs, by its last beat: the sweep restarts a chain gone quiet. */
  segmentJobEntry: (clientId: number, segmentId: number, beatAt: string) => ({
    gsi3pk: keys.segmentJobPk,
    gsi3sk: `${beatAt}#${clientId}#${pad(segmentId, 6)}`,
  }),
  segmentJobPk: 'SEGJOB',
  segmentJobOf: (gsi3sk: string): { client_id: number; segment_id: number; beat_at: string } | undefined => {
    const match = /^([^#]+)#(\d+)#(\d{6})$/.exec(gsi3sk);
    return match ? { beat_at: match[1]!, client_id: Number(match[2]), segment_id: Number(match[3]) } : undefined;
  },
  /** Per-contact event counters (the segments' event conditions), beside the contact in its partition. */
  contactCounters: (clientId: number, contactId: number): ItemKey => ({
    pk: `CONTACT#${clientId}#${contactId}`,
    sk: 'EVCOUNT',
  }),
  /** The contact's engagement with one source (`B<bid>`, `J<jid>`), beside the contact in its partition. */
  contactEngagement: (clientId: number, contactId: number, source: string): ItemKey => ({
    pk: `CONTACT#${clientId}#${contactId}`,
    sk: `${keys.contactEngagementSkPrefix}${source}`,
  }),
  contactEngagementSkPrefix: 'ENG#',
  /** The contact's segment memberships and its next time-relative edge; not streamed (no entity). */
  segmentState: (clientId: number, contactId: number): ItemKey => ({
    pk: `CONTACT#${clientId}#${contactId}`,
    sk: 'SEGSTATE',
  }),
  segmentDueShards: 8,
  /** Sparse gsi3 entry of a contact whose membership may flip at `nextEvalAt` (the edges sweep's view). */
  segmentDueEntry: (clientId: number, contactId: number, nextEvalAt: string) => ({
    gsi3pk: keys.segmentDuePk(contactId % keys.segmentDueShards),
    gsi3sk: `${nextEvalAt}#${clientId}#${pad(contactId)}`,
  }),
  segmentDuePk: (shard: number): string => `SEGDUE#${shard}`,
  segmentDueOf: (gsi3sk: string): { client_id: number; contact_id: number; due_at: string } | undefined => {
    const match = /^([^#]+)#(\d+)#(\d{12})$/.exec(gsi3sk);
    return match ? { due_at: match[1]!, client_id: Number(match[2]), contact_id: Number(match[3]) } : undefined;
  },
  segmentMemberShards: 16,
  /** One member of one segment: 16 partitions a segment, sorted by contact id (the members listing merges them). */
  segmentMember: (clientId: number, segmentId: number, contactId: number) => ({
    pk: keys.segmentMemberPk(clientId, segmentId, contactId % keys.segmentMemberShards),
    sk: pad(contactId),
    entity: ENTITY.segmentMember,
  }),
  segmentMemberPk: (clientId: number, segmentId: number, shard: number): string =>
    `SEGM#${clientId}#${pad(segmentId, 6)}#${shard}`,
  /** One contact-listing shard's backfill progress of a segment. */
  segmentBackfill: (clientId: number, segmentId: number, contactShard: number): ItemKey => ({
    pk: `SEGBF#${clientId}#${pad(segmentId, 6)}`,
    sk: String(contactShard),
  }),
  /** A segment's member count now (`n`; written by the day-counters projection only). */
  statsSegmentGauge: (clientId: number, segmentId: number): ItemKey => ({
    pk: keys.statsPk(clientId),
    sk: `NOW#S${pad(segmentId, 6)}`,
  }),

  broadcast: (clientId: number, broadcastId: number): ItemKey => ({
    pk: clientPk(clientId),
    sk: `${keys.broadcastSkPrefix}${pad(broadcastId, 8)}`,
  }),
  broadcastSkPrefix: 'BROADCAST#',
  broadcastCount: (clientId: number): ItemKey => ({ pk: clientPk(clientId), sk: 'BROADCASTS' }),
  broadcastLiveShards: 4,
  /** Sparse gsi3 entry of a broadcast between scheduled and sent, by its next check (the lost-chain sweep's view). */
  broadcastLiveEntry: (clientId: number, broadcastId: number, nextCheckAt: string) => ({
    gsi3pk: keys.broadcastLivePk(broadcastId % keys.broadcastLiveShards),
    gsi3sk: `${nextCheckAt}#${clientId}#${pad(broadcastId, 8)}`,
  }),
  broadcastLivePk: (shard: number): string => `BCASTLIVE#${shard}`,
  broadcastLiveOf: (gsi3sk: string): { client_id: number; broadcast_id: number; next_at: string } | undefined => {
    const match = /^([^#]+)#(\d+)#(\d{8})$/.exec(gsi3sk);
    return match ? { next_at: match[1]!, client_id: Number(match[2]), broadcast_id: Number(match[3]) } : undefined;
  },
  /** The partition of one broadcast's engine items (snapshot shards, pacer). */
  broadcastPk: (clientId: number, broadcastId: number): string => `BCAST#${clientId}#${pad(broadcastId, 8)}`,
  /** How far the snapshot has read one source shard of the audience. */
  broadcastSnapshotShard: (clientId: number, broadcastId: number, sourceShard: number): ItemKey => ({
    pk: keys.broadcastPk(clientId, broadcastId),
    sk: `SNAP#${sourceShard}`,
  }),
  broadcastPacer: (clientId: number, broadcastId: number): ItemKey => ({
    pk: keys.broadcastPk(clientId, broadcastId),
    sk: 'PACER',
  }),
  /** A pace clock: the whole account's (`all`) or one client's. */
  paceClock: (owner: number | 'all'): ItemKey => ({ pk: owner === 'all' ? 'PACE#ALL' : `PACE#${owner}`, sk: 'PACE' }),
  broadcastRecipientShards: 16,
  /** gsi1 entry of a broadcast recipient (an execution): the broadcast's recipient list, by contact id. */
  broadcastRecipientListing: (clientId: number, broadcastId: number, contactId: number, executionId: number) => ({
    gsi1pk: keys.broadcastRecipientsPk(clientId, broadcastId, contactId % keys.broadcastRecipientShards),
    gsi1sk: `${pad(contactId)}#${pad(executionId, 16)}`,
  }),
  broadcastRecipientsPk: (clientId: number, broadcastId: number, shard: number): string =>
    `BCAST#${clientId}#${pad(broadcastId, 8)}#${shard}`,
  /** Sparse gsi3 entry of a recipient waiting for the pacer, by its due time, in one of the broadcast's partitions. */
  broadcastDueEntry: (
    clientId: number,
    broadcastId: number,
    partition: number,
    scheduledFor: string,
    executionId: number,
  ) => ({
    gsi3pk: keys.broadcastDuePk(clientId, broadcastId, partition),
    gsi3sk: `${scheduledFor}#${pad(executionId, 16)}`,
  }),
  broadcastDuePk: (clientId: number, broadcastId: number, partition: number): string =>
    `${keys.broadcastDuePrefix}${clientId}#${pad(broadcastId, 8)}#${partition}`,
  /** What every due-index partition key starts with: a queued execution there waits for its pacer, not a message. */
  broadcastDuePrefix: 'BDUE#',
  broadcastDueOf: (gsi3sk: string): { scheduled_for: string; execution_id: number } | undefined => {
    const match = /^([^#]+)#(\d{16})$/.exec(gsi3sk);
    return match ? { scheduled_for: match[1]!, execution_id: Number(match[2]) } : undefined;
  },
  /** A broadcast's totals (written by the day-counters projection only). */
  statsBroadcastTotals: (clientId: number, broadcastId: number): ItemKey => ({
    pk: keys.statsPk(clientId),
    sk: `B${pad(broadcastId, 8)}#T`,
  }),

  /** One variant's results of a broadcast's A/B test (written by the day-counters projection only). */
  statsBroadcastVariant: (clientId: number, broadcastId: number, variant: number): ItemKey => ({
    pk: keys.statsPk(clientId),
    sk: `B${pad(broadcastId, 8)}#V${variant}`,
  }),
  /** One link's clicks (by people, by machines) in a broadcast's e-mails, by the first 12 hex of its URL's SHA-1. */
  statsBroadcastLink: (clientId: number, broadcastId: number, link: string): ItemKey => ({
    pk: keys.statsPk(clientId),
    sk: `B${pad(broadcastId, 8)}#L${link}`,
  }),
  /** What every result row of one broadcast's sort key starts with (totals, variants, links: one Query reads them). */
  statsBroadcastPrefix: (broadcastId: number): string => `B${pad(broadcastId, 8)}#`,
  /** The client's broadcasts that count conversions now (their event type and window), read as configuration. */
  broadcastConversions: (clientId: number): ItemKey => ({ pk: clientPk(clientId), sk: 'BCASTCONV' }),

  run: (clientId: number, runId: number): ItemKey => ({ pk: `RUN#${clientId}#${runId}`, sk: 'RUN' }),
  /** gsi2 entry (KEYS_ONLY) of a run in its contact's history: the erasure ends and scrubs the contact's runs. */
  runHistory: (clientId: number, contactId: number, createdAt: string, runId: number) => ({
    gsi2pk: keys.contactHistoryPk(clientId, contactId),
    gsi2sk: `${keys.runHistoryPrefix}${createdAt}#${pad(runId, 16)}`,
  }),
  runHistoryPrefix: 'RUN#',
  runDueShards: 8,
  /** gsi3 entry while a run is due (active or waiting): the stuck-run sweep's view, as executingEntry is for sends. */
  runDueEntry: (clientId: number, runId: number, dueAt: string) => ({
    gsi3pk: keys.runDuePk(runId % keys.runDueShards),
    gsi3sk: `${dueAt}#${clientId}#${pad(runId, 16)}`,
  }),
  runDuePk: (shard: number): string => `RUNDUE#${shard}`,
  runDueOf: (gsi3sk: string): { client_id: number; run_id: number; due_at: string } | undefined => {
    const match = /^([^#]+)#(\d+)#(\d{16})$/.exec(gsi3sk);
    return match ? { due_at: match[1]!, client_id: Number(match[2]), run_id: Number(match[3]) } : undefined;
  },
  /** One run in flight per (journey, contact, key value): the re-entry rules condition on it. */
  runLock: (clientId: number, journeyId: number, contactId: number, keyHash?: string): ItemKey => ({
    pk: `RUNLOCK#${clientId}#${journeyId}#${contactId}${keyHash === undefined ? '' : `#${keyHash}`}`,
    sk: 'RUNLOCK',
  }),
  /** The domain a gsi3 sort key of the DOMAINCHECK partition names; undefined for anything else. */
  domainCheckOf: (gsi3sk: string): { client_id: number; domain_id: number } | undefined => {
    const match = /#(\d+)#(\d{12})$/.exec(gsi3sk);
    return match ? { client_id: Number(match[1]), domain_id: Number(match[2]) } : undefined;
  },
  /**
   * What a changed item's key names, for the change stream's readers (webhooks): a sent e-mail's status log,
   * a contact, an execution, an event, a sending domain, a client's sender state; undefined for any other item.
   */
  changedItemOf: (
    pk: string,
    sk: string,
  ):
    | { kind: 'sentLog'; clientId: number; sentEmailId: string }
    | { kind: 'contact'; clientId: number; contactId: number }
    | { kind: 'execution'; clientId: number; executionId: number }
    | { kind: 'event'; clientId: number; eventId: number }
    | { kind: 'domain'; clientId: number; domainId: number }
    | { kind: 'sender'; clientId: number }
    | { kind: 'run'; clientId: number; runId: number }
    | { kind: 'segmentMember'; clientId: number; segmentId: number; contactId: number }
    | { kind: 'broadcast'; clientId: number; broadcastId: number }
    | undefined => {
    const owner = /^CLIENT#(\d+)$/.exec(pk);
    if (owner) {
      const clientId = Number(owner[1]);
      if (sk === 'SENDER') return { kind: 'sender', clientId };
      const broadcast = /^BROADCAST#(\d{8})$/.exec(sk);
      if (broadcast) return { kind: 'broadcast', clientId, broadcastId: Number(broadcast[1]) };
      const domain = /^DOMAIN#(\d{12})$/.exec(sk);
      return domain ? { kind: 'domain', clientId, domainId: Number(domain[1]) } : undefined;
    }
    const member = /^SEGM#(\d+)#(\d{6})#\d+$/.exec(pk);
    if (member)
      return {
        kind: 'segmentMember',
        clientId: Number(member[1]),
        segmentId: Number(member[2]),
        contactId: Number(sk),
      };
    const run = /^RUN#(\d+)#(\d+)$/.exec(pk);
    if (run) return sk === 'RUN' ? { kind: 'run', clientId: Number(run[1]), runId: Number(run[2]) } : undefined;
    const match = /^(SENT|CONTACT|EXEC|EVENT)#(\d+)#([^#]+)$/.exec(pk);
    if (!match) return undefined;
    const [, kind, client, id] = match as unknown as [string, 'SENT' | 'CONTACT' | 'EXEC' | 'EVENT', string, string];
    const clientId = Number(client);
    if (kind === 'EVENT') return sk === 'EVENT' ? { kind: 'event', clientId, eventId: Number(id) } : undefined;
    if (kind === 'SENT')
      return sk.startsWith(keys.sentEmailLogPrefix) ? { kind: 'sentLog', clientId, sentEmailId: id } : undefined;
    if (kind === 'CONTACT') return sk === 'CONTACT' ? { kind: 'contact', clientId, contactId: Number(id) } : undefined;
    return sk === keys.executionSk ? { kind: 'execution', clientId, executionId: Number(id) } : undefined;
  },
  webhookMessage: (clientId: number, messageId: string): ItemKey => ({
    pk: `WHMSG#${clientId}#${messageId}`,
    sk: 'WHMSG',
  }),
  webhookAttempt: (clientId: number, webhookId: number, attemptId: string): ItemKey => ({
    pk: keys.webhookAttemptsPk(clientId, webhookId),
    sk: attemptId,
  }),
  webhookAttemptsPk: (clientId: number, webhookId: number): string => `WHATT#${clientId}#${webhookId}`,
  /** An endpoint's replays in one hour: the per-endpoint cap's counter. */
  webhookReplayWindow: (clientId: number, webhookId: number, hourStart: number): ItemKey => ({
    pk: `WHREPLAY#${clientId}#${webhookId}`,
    sk: String(hourStart),
  }),
  /** gsi2 entry of a webhook message in its contact's history (the erasure redacts it; the timeline reads no WHMSG range). */
  contactWebhookMessage: (clientId: number, contactId: number, createdAt: string, messageId: string) => ({
    gsi2pk: keys.contactHistoryPk(clientId, contactId),
    gsi2sk: `WHMSG#${createdAt}#${messageId}`,
  }),
  /** gsi2 entry of an attempt under its message (the erasure finds a message's attempts by it, one Query). */
  webhookAttemptOfMessage: (clientId: number, messageId: string, webhookId: number, attemptId: string) => ({
    gsi2pk: keys.webhookMessage(clientId, messageId).pk,
    gsi2sk: `WHATT#${pad(webhookId)}#${attemptId}`,
  }),

  customization: (clientId: number, workflowId: number): ItemKey => ({
    pk: clientPk(clientId),
    sk: `WORKFLOW#${pad(workflowId, 4)}`,
  }),
  customizationAudit: (clientId: number, workflowId: number, at: string, seq: string): ItemKey => ({
    pk: clientPk(clientId),
    sk: `WORKFLOW#${pad(workflowId, 4)}#AUDIT#${at}#${seq}`,
  }),
  customizationAuditPrefix: (workflowId: number): string => `WORKFLOW#${pad(workflowId, 4)}#AUDIT#`,

  event: (clientId: number, eventId: number): ItemKey => ({ pk: `EVENT#${clientId}#${eventId}`, sk: 'EVENT' }),
  queuedEventShards: 4,
  /** Sparse gsi1 entry of an event while it is queued (the sweeper's view); removed when processed. */
  queuedEvent: (eventId: number, createdAt: string) => ({
    gsi1pk: keys.queuedEventPk(eventId % keys.queuedEventShards),
    gsi1sk: createdAt,
  }),
  queuedEventPk: (shard: number): string => `EVENTS#QUEUED#${shard}`,
  /** `keyHash` is the SHA-256 of the caller's idempotency key: any key length fits the 1 024-byte key limit. */
  idempotency: (clientId: number, keyHash: string): ItemKey => ({ pk: `IDEM#${clientId}#${keyHash}`, sk: 'IDEM' }),

  execution: (clientId: number, executionId: number): ItemKey => ({
    pk: `EXEC#${clientId}#${executionId}`,
    sk: keys.executionSk,
  }),
  executionSk: 'EXEC',
  executionShards: 8,
  /** gsi1 entry listing a client's executions newest first, spread over `executionShards` key values. */
  executionListing: (clientId: number, executionId: number, createdAt: string) => ({
    gsi1pk: keys.executionListingPk(clientId, executionId % keys.executionShards),
    gsi1sk: `${createdAt}#${pad(executionId, 16)}`,
  }),
  executionListingPk: (clientId: number, shard: number): string => `CLIENT#${clientId}#EXEC#${shard}`,
  executingShards: 8,
  /**
   * Sparse gsi3 entry of pending work: a queued execution by its due time, one at 2 by its last `updated_at`; moved with
   * each, removed when the execution ends. The sweep finds work overdue by more than the lease by a range on the sort key.
   */
  executingEntry: (clientId: number, executionId: number, updatedAt: string) => ({
    gsi3pk: keys.executingPk(executionId % keys.executingShards),
    gsi3sk: `${updatedAt}#${clientId}#${pad(executionId, 16)}`,
  }),
  executingPk: (shard: number): string => `EXECUTING#${shard}`,
  /** The execution a gsi3 sort key names; undefined for anything else. */
  executingOf: (gsi3sk: string): { client_id: number; execution_id: number } | undefined => {
    const match = /#(\d+)#(\d{16})$/.exec(gsi3sk);
    return match ? { client_id: Number(match[1]), execution_id: Number(match[2]) } : undefined;
  },

  sentEmail: (clientId: number, sentEmailId: string): ItemKey => ({
    pk: `SENT#${clientId}#${sentEmailId}`,
    sk: 'SENT',
  }),
  sentEmailLog: (clientId: number, sentEmailId: string, at: string, logId: string): ItemKey => ({
    pk: `SENT#${clientId}#${sentEmailId}`,
    sk: `LOG#${at}#${logId}`,
  }),
  sentEmailLogPrefix: 'LOG#',
  /** A status log as written: its keys and its `entity`, which the change-stream readers filter on. */
  sentEmailLogItem: (clientId: number, sentEmailId: string, at: string, logId: string) => ({
    ...keys.sentEmailLog(clientId, sentEmailId, at, logId),
    entity: ENTITY.sentEmailLog,
  }),
  /** Marks that the e-mail's first human open / click was counted on the contact (written once, in that transaction). */
  engagementMarker: (clientId: number, sentEmailId: string, kind: 'open' | 'click'): ItemKey => ({
    pk: `SENT#${clientId}#${sentEmailId}`,
    sk: `COUNTED#${kind}`,
  }),
  providerMessage: (providerMessageId: string): ItemKey => ({ pk: `MSG#${providerMessageId}`, sk: 'MSG' }),

  /**
   * The client's send counter of one UTC month: `sent` (the month) and `d<DD>` (each day), raised together by the
   * claim. A client whose limits allow 10 000+ a day spreads it over 8 shards (domain/executions/quota-shards.ts).
   */
  quota: (clientId: number, month: string, shard = 0): ItemKey => ({
    pk: `QUOTA#${clientId}#${month}${shard > 0 ? `#${shard}` : ''}`,
    sk: 'QUOTA',
  }),
  /** A client's permanent bounces (`b<DD>`) and complaints (`c<DD>`) of one UTC month; its sends are the quota's `d<DD>`. */
  deliverability: (clientId: number, month: string): ItemKey => ({ pk: `DELIV#${clientId}#${month}`, sk: 'DELIV' }),
  /** The client's aggregate open-hour histogram (send time mode 2's fallback): its own key, off the config partition. */
  clientOpenHours: (clientId: number): ItemKey => ({ pk: `OPENHOURS#${clientId}`, sk: 'OPENHOURS' }),
  /**
   * One client's request count of one rate-limit window. Its own partition key, not `CLIENT#<id>`: a client's flood
   * writes here at its limit's pace and must not share the partition that holds its configuration.
   */
  rateWindow: (clientId: number, policy: string, windowStart: number): ItemKey => ({
    pk: `RATE#${clientId}#${policy}`,
    sk: String(windowStart),
  }),
  /** One address's count of anonymous requests in one window, by the address's digest (no address in a key). */
  ipRateWindow: (ipHash: string, windowStart: number): ItemKey => ({ pk: `IPRATE#${ipHash}`, sk: String(windowStart) }),
  /** One workflow's counters of one UTC day (written by the day-counters projection only). */
  statsWorkflowDay: (clientId: number, day: string, workflowId: number): ItemKey => ({
    pk: keys.statsPk(clientId),
    sk: `${day}#W${pad(workflowId, 4)}`,
  }),
  /** One journey step's counters of one UTC day (written by the day-counters projection only). */
  statsJourneyStepDay: (clientId: number, day: string, journeyId: number, stepId: string): ItemKey => ({
    pk: keys.statsPk(clientId),
    sk: `${day}#J${pad(journeyId, 6)}#${stepId}`,
  }),
  /** The day rows of one journey's steps over a range of UTC days. */
  statsJourneyDayRange: (fromDay: string, toDay: string): { from: string; to: string } => ({
    from: `${fromDay}#J`,
    to: `${toDay}#J~`,
  }),
  /** A journey's runs in flight at each step now (`s_<step>`; written by the day-counters projection only). */
  statsJourneyGauge: (clientId: number, journeyId: number): ItemKey => ({
    pk: keys.statsPk(clientId),
    sk: `NOW#J${pad(journeyId, 6)}`,
  }),
  /** Events of one type received on one UTC day. */
  statsEventTypeDay: (clientId: number, day: string, type: string): ItemKey => ({
    pk: keys.statsPk(clientId),
    sk: `${day}#E#${type}`,
  }),
  /**
   * A client's day rows, one partition: the projection writes a batch's sums, so even the busiest client's rows take
   * a few writes a second. Shards 1..15 hold rows written before the projection, when each fact wrote its own count
   * (`npm run admin -- stats fold-shards` folds them into 0).
   */
  statsPk: (clientId: number, shard = 0): string => `STATS#${clientId}#${shard}`,
  /** Whether a partition key is a day-counter row's (any shard): what only the projection may write. */
  isStatsPk: (pk: unknown): boolean => typeof pk === 'string' && pk.startsWith('STATS#'),
  /** The counter rows' shards that facts were once spread over (the fold reads them). */
  legacyStatsShards: 16,
  /**
   * How far one projection of the change stream has applied one stream shard: `pos`, the last applied record's
   * sequence number (padded so strings compare as numbers), moved in the same transaction as that record's effect.
   */
  streamPosition: (projection: string, shardId: string): ItemKey => ({
    pk: `STREAMPOS#${projection}#${shardId}`,
    sk: 'STREAMPOS',
  }),
  /** The sort key range of the days `fromDay`..`toDay`: every row of those days sorts between the two. */
  statsDayRange: (fromDay: string, toDay: string): { from: string; to: string } => ({
    from: `${fromDay}#`,
    to: `${toDay}#~`,
  }),
  /** E-mails sent to one contact on one day of its own time zone. */
  contactDayCap: (clientId: number, contactId: number, localDay: string): ItemKey => ({
    pk: `CAP#${clientId}#${contactId}#${localDay}`,
    sk: 'CAP',
  }),
} as const;

/**
 * The partition keys of the request counters (keys.rateWindow, keys.ipRateWindow) as IAM `dynamodb:LeadingKeys`
 * patterns: a route that only reads the table may still count its requests there, and write nothing else.
 */
export const RATE_COUNTER_KEY_PATTERNS = ['RATE#*', 'IPRATE#*'] as const;

/**
 * The keys of dashboard accounts (see the header): an object of their own, so the functions that only
 * authenticate carry just `sessionKey`.
 */
export const accountKeys = {
  user: (clientId: number, userId: number): ItemKey => ({ pk: clientPk(clientId), sk: `USER#${pad(userId)}` }),
  userSkPrefix: 'USER#',
  userCount: (clientId: number): ItemKey => ({ pk: clientPk(clientId), sk: 'USERS' }),
  userSession: (clientId: number, userId: number, sessionHash: string): ItemKey => ({
    pk: clientPk(clientId),
    sk: `${accountKeys.userSessionPrefix(userId)}${sessionHash}`,
  }),
  userSessionPrefix: (userId: number): string => `USERSESSION#${pad(userId)}#`,
  /** A key `userId` created or holds (personal), by the key's digest: what ends with the user (removal, demotion). */
  userApiKey: (clientId: number, userId: number, keyHash: string): ItemKey => ({
    pk: clientPk(clientId),
    sk: `${accountKeys.userApiKeyPrefix(userId)}${keyHash}`,
  }),
  userApiKeyPrefix: (userId: number): string => `USERAPIKEY#${pad(userId)}#`,
  userEmailLock: (email: string): ItemKey => ({
    pk: `USEREMAIL#${createHash('sha256').update(email.toLowerCase()).digest('hex')}`,
    sk: 'USEREMAIL',
  }),
  signInLink: (tokenHash: string): ItemKey => ({ pk: `SIGNIN#${tokenHash}`, sk: 'SIGNIN' }),
  signInWindow: (
    kind: 'addr_ip' | 'ip' | 'invite_client' | 'invite_to' | 'broadcast_test',
    valueHash: string,
    windowStart: number,
  ): ItemKey => ({
    pk: `SIGNINRATE#${kind}#${valueHash}`,
    sk: String(windowStart),
  }),
} as const;

/** The local runtime's DNS and SES identity registry (see the header); nothing on AWS reads or writes these. */
export const devKeys = {
  dnsRecord: (name: string, type: 'TXT' | 'CNAME' | 'MX'): ItemKey => ({ pk: `DEVDNS#${name}`, sk: type }),
  sesIdentity: (domain: string): ItemKey => ({ pk: `DEVSES#IDENTITY#${domain}`, sk: 'IDENTITY' }),
  sesTenant: (tenant: string): ItemKey => ({ pk: `DEVSES#TENANT#${tenant}`, sk: 'TENANT' }),
} as const;

/** A session by the digest of its id: what every request made with a session reads. */
export const sessionKey = (sessionHash: string): ItemKey => ({ pk: `SESSION#${sessionHash}`, sk: 'SESSION' });
