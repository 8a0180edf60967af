import fc from 'fast-check';

/**
 * Generators of what an attacker or a careless client sends. Everything is produced as wire text (JSON text,
 * percent-encoded path segments, raw header values) so that keys like `__proto__`, duplicate keys and 10 000 levels
 * of nesting survive: a JavaScript object could not carry them.
 */

/** Field names the API reads somewhere; wrong values under real names reach deeper than unknown keys. */
const API_FIELD_NAMES = [
  'email',
  'first_name',
  'last_name',
  'company',
  'phone',
  'timezone',
  'client_contact_id',
  'external_id',
  'signup_source',
  'source',
  'custom_fields',
  'is_subscribed',
  'unsubscribe_reason',
  'contacts',
  'overwrite_blank_fields',
  'name',
  'subject',
  'preview_text',
  'html_body',
  'text_body',
  'q',
  'type',
  'include_deleted',
  'page',
  'per_page',
  'contact_id',
  'include_default_vars',
  'vars',
  'template_id',
  'delay_minutes',
  'preferred_send_hour',
  'preferred_send_minute',
  'priority_score',
  'enabled',
  'max_emails_per_day',
  'custom_email_quota_per_day',
  'queue_timeout_days',
  'send_window_allowed_days',
  'brand_primary_color',
  'email_from_address',
  'quiet_hour_start',
] as const;

/** Names that are members of Object.prototype: a lookup in a plain object finds something for them. */
export const PROTOTYPE_NAMES = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'isPrototypeOf',
  'toLocaleString',
  'propertyIsEnumerable',
  '__defineGetter__',
] as const;

/** One character that tends to break text handling: NUL, lone surrogates, BOM, direction overrides, astral. */
const oddCharacter = fc.oneof(
  fc.constantFrom(
    '\u0000',
    '\ud800',
    '\udfff',
    '\ufeff',
    '\u202e',
    '\uffff',
    '\u0085',
    '\u2028',
    '😀',
    'é',
    '"',
    '\\',
    '%',
    '\n',
  ),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);

const oddText = fc.string({ unit: oddCharacter, maxLength: 24 });

/** `depth` levels of objects (or arrays) as JSON text around `1`. */
export const nestedJson = (depth: number, kind: 'object' | 'array' = 'object'): string =>
  kind === 'object' ? `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}` : `${'['.repeat(depth)}1${']'.repeat(depth)}`;

/** A JSON object written key by key, so prototype names and repeated keys stay as sent. */
export const objectJson = (entries: readonly (readonly [string, string])[]): string =>
  `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${value}`).join(',')}}`;

const fieldName = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...API_FIELD_NAMES) },
  { weight: 2, arbitrary: fc.constantFrom(...PROTOTYPE_NAMES) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('k'.repeat(10_000), `custom.${'x'.repeat(2_000)}`, '', ' ', 'a.b', 'contacts.0.email'),
  },
  { weight: 1, arbitrary: oddText },
);

/** A JSON value (as text) of the wrong type, size or shape for whatever field it lands in. */
const wrongValue: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(
      'null',
      'true',
      'false',
      '0',
      '-1',
      '-0',
      '1.5',
      '1e308',
      '-1e308',
      '9007199254740993',
      '1e400',
      '123456789012345678901234567890',
      '""',
      '" "',
      '[]',
      '{}',
      '[null]',
      '[[]]',
    ),
    oddText.map((text) => JSON.stringify(text)),
    fc
      .constantFrom('a@b.co', `${'a'.repeat(5_000)}@example.com`, 'not-an-email', '@', 'A@B.CO ', 'x@y\u0000.com')
      .map((text) => JSON.stringify(text)),
    // Huge strings: over every field's bound, one of them over DynamoDB's 400 KB item limit.
    fc.constantFrom(1_000, 70_000, 450_000).map((length) => JSON.stringify('x'.repeat(length))),
    fc.constantFrom(100, 10_000).chain((depth) => fc.constantFrom(nestedJson(depth), nestedJson(depth, 'array'))),
    fc.constantFrom(...PROTOTYPE_NAMES).map((name) => objectJson([[name, '{"polluted":true}']])),
    fc.array(tie('value'), { maxLength: 3 }).map((items) => `[${items.join(',')}]`),
    fc.array(fc.tuple(fieldName, tie('value')), { maxLength: 3 }).map(objectJson),
  ),
})).value;

/** A body and the content type it is sent with (absent when undefined). */
export interface MalformedBody {
  contentType?: string;
  payload: string | Uint8Array;
}

const json = (payload: string | Uint8Array, contentType = 'application/json'): MalformedBody => ({
  contentType,
  payload,
});

const notJson = fc.oneof(
  fc.constantFrom(
    '{',
    '{"a":',
    '{"a":1}}',
    "{'a':1}",
    '{a:1}',
    '[1,]',
    'undefined',
    'NaN',
    '\u0000',
    '\ufeff{}',
    '{"a":1,}',
  ),
  oddText,
);

const notAnObject = fc.constantFrom('null', '42', '-1e309', '"text"', '[]', '[{}]', 'true', 'false', '""');

const deeplyNested = fc
  .constantFrom(10_000, 100_000)
  .chain((depth) =>
    fc.constantFrom(
      nestedJson(depth),
      nestedJson(depth, 'array'),
      objectJson([['vars', nestedJson(depth)]]),
      objectJson([['custom_fields', nestedJson(depth)]]),
    ),
  );

const wrongTypedObject = fc.array(fc.tuple(fieldName, wrongValue), { minLength: 1, maxLength: 5 }).map(objectJson);

/** Not UTF-8 at all, or JSON in another encoding. */
const badBytes = fc.oneof(
  fc.constantFrom(
    Uint8Array.from([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]),
    Uint8Array.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x3a, 0x31, 0x7d]),
  ),
  fc.uint8Array({ minLength: 1, maxLength: 64 }),
);

const MULTIPART_BOUNDARY = 'fuzzboundary';
const multipart = (parts: string): MalformedBody => ({
  contentType: `multipart/form-data; boundary=${MULTIPART_BOUNDARY}`,
  payload: parts,
});
const formPart = (name: string, content: string, filename?: string): string =>
  `--${MULTIPART_BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"${filename === undefined ? '' : `; filename="${filename}"`}\r\n\r\n${content}\r\n`;

/** Broken multipart forms (the CSV upload reads these; the JSON routes must refuse them). */
const brokenMultipart = fc.oneof(
  fc.constantFrom(
    multipart(''),
    multipart(`--${MULTIPART_BOUNDARY}\r\n`),
    multipart(formPart('file', 'email\na@b.co', 'c.csv')), // no closing boundary
    multipart(`${formPart('__proto__', 'x')}${formPart('constructor', 'y')}--${MULTIPART_BOUNDARY}--\r\n`),
    multipart(`${formPart('file', `email\n${'"'.repeat(3)}unterminated`, 'c.csv')}--${MULTIPART_BOUNDARY}--\r\n`),
    multipart(`${formPart('file', '', 'c.csv')}${formPart('delimiter', '')}--${MULTIPART_BOUNDARY}--\r\n`),
    { contentType: 'multipart/form-data', payload: 'no boundary' },
    { contentType: 'multipart/form-data; boundary=', payload: '--\r\n\r\n' },
  ),
  fc
    .tuple(fc.constantFrom('file', 'has_header', 'delimiter', 'default_timezone', ...PROTOTYPE_NAMES), oddText)
    .map(([name, content]) =>
      multipart(`${formPart(name, content, name === 'file' ? 'c.csv' : undefined)}--${MULTIPART_BOUNDARY}--\r\n`),
    ),
);

/** Content types a JSON body should not be read under, and odd spellings of the right one. */
const oddContentType = fc.constantFrom(
  undefined,
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/jsonx',
  'application/json; charset=utf-16',
  'application/json; charset=iso-8859-1',
  'application/json;charset=',
  'APPLICATION/JSON',
  'application/vnd.api+json',
  '*/*',
  'application/json, text/plain',
  '',
);

/** Every kind of body the API must refuse (or accept) without a 5xx. */
export const malformedBody: fc.Arbitrary<MalformedBody> = fc.oneof(
  { weight: 2, arbitrary: notJson.map((text) => json(text)) },
  { weight: 2, arbitrary: notAnObject.map((text) => json(text)) },
  { weight: 6, arbitrary: wrongTypedObject.map((text) => json(text)) },
  { weight: 1, arbitrary: deeplyNested.map((text) => json(text)) },
  { weight: 1, arbitrary: badBytes.map((bytes) => json(bytes)) },
  {
    weight: 1,
    arbitrary: wrongTypedObject.map((text) => json(Buffer.from(text, 'utf16le'), 'application/json; charset=utf-16')),
  },
  {
    weight: 2,
    arbitrary: fc.tuple(wrongTypedObject, oddContentType).map(([text, type]) => ({ contentType: type, payload: text })),
  },
  { weight: 1, arbitrary: brokenMultipart },
);

/** Percent-encodes every UTF-8 byte (lone surrogates become U+FFFD, as any client's encoder would send them). */
const percentEncode = (text: string): string =>
  [...Buffer.from(text, 'utf8')].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');

/** A path parameter as it appears on the wire. */
export const malformedPathValue: fc.Arbitrary<string> = fc.oneof(
  // Huge: a DynamoDB key holds at most 1 024 bytes.
  fc.constantFrom(
    'a'.repeat(5_000),
    `${'a'.repeat(5_000)}%40example.com`,
    '9'.repeat(5_000),
    percentEncode('€'.repeat(2_000)),
  ),
  // Percent-encoding that does not decode, or decodes to something odd.
  fc.constantFrom(
    '%',
    '%%',
    '%zz',
    '%E0%A4%A',
    '%C0%AF',
    '%ED%A0%80',
    '%FF',
    '%00',
    '%2F',
    '%2e%2e',
    'a%2Fb',
    '%u0041',
  ),
  fc.constantFrom(
    '-1',
    '0',
    '-0',
    '1.5',
    '1e3',
    '1e400',
    '9007199254740993',
    '99999999999999999999999',
    'NaN',
    'Infinity',
    '0x10',
    '%201',
    '1%00',
    '1,2',
    '00000000000000000001',
  ),
  fc.constantFrom('a@b.co', 'A%40B.CO', 'a%40', '%40', 'x@y', 'a+b@c.co', '%22a%22@b.co', 'a%0D%0A@b.co'),
  fc.constantFrom('..', '.', '.%2e', '%2e', '..%2F..%2Fsettings', '..;', '~'),
  fc.constantFrom(...PROTOTYPE_NAMES),
  oddText.filter((text) => text.length > 0).map(percentEncode),
);

/** A query string (without `?`), valid-looking or not. */
export const malformedQuery: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      fc
        .tuple(
          fc.constantFrom(
            'page',
            'per_page',
            'include_deleted',
            'q',
            'sync',
            'status',
            'created_from',
            ...PROTOTYPE_NAMES,
            'k'.repeat(5_000),
          ),
          fc.constantFrom(
            '',
            '-1',
            '0',
            '1.5',
            '1e309',
            '99999999999999999999',
            'true',
            'yes',
            'TRUE',
            '%zz',
            '%',
            '__proto__',
            'a'.repeat(5_000),
            '%00',
            '%ED%A0%80',
            '2024-13-45',
          ),
        )
        .map(([key, value]) => `${key}=${value}`),
      oddText.map(percentEncode),
      fc.constantFrom('', '=', '&', '==', 'a=b=c', '%', '?', '#'),
    ),
    { maxLength: 5 },
  )
  .map((parts) => parts.join('&'));

/** A header value made of any byte a header line can carry (HTTP allows tab, visible ASCII and 0x80–0xFF). */
const headerText = fc
  .string({ unit: 'binary-ascii', maxLength: 40 })
  .map((text) => text.replace(/[^\t\x20-\x7e\x80-\xff]/g, ''));

/** Authorization headers other than the client's key. */
export const malformedAuthorization: fc.Arbitrary<string | string[]> = fc.oneof(
  fc.constantFrom(
    '',
    'Bearer',
    'Bearer ',
    'Basic dXNlcjpwYXNz',
    'bearer els_',
    'Bearer els_',
    `Bearer els_${'a'.repeat(40)}`,
    'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIiwiY2xpZW50X2lkIjoxfQ.',
    'Bearer a.b.c',
    'Bearer ....',
    'Bearer \u00e9\u00ff',
    'Bearer\tels_x',
  ),
  headerText.map((text) => `Bearer ${text}`),
  headerText,
  // Past the local server's 16 KB header limit, and just under it.
  fc.constantFrom(100_000, 8_000).map((length) => `Bearer ${'a'.repeat(length)}`),
);

/** Extra headers and content types a careless client sends. */
export const oddHeaders: fc.Arbitrary<Record<string, string>> = fc.record(
  {
    'content-type': fc.oneof(
      fc.constantFrom(
        'application/json',
        'application/json; charset=utf-16',
        'text/plain',
        'application/json; charset="',
        'multipart/form-data',
        'multipart/form-data; boundary=',
        '',
      ),
      headerText,
    ),
    accept: headerText,
    'accept-charset': fc.constantFrom('utf-16', 'iso-8859-1', '*', ''),
    'content-encoding': fc.constantFrom('gzip', 'br', 'identity', 'x'),
    'x-http-method-override': fc.constantFrom('DELETE', 'GET', 'PUT'),
    'x-request-id': headerText,
    'x-forwarded-for': fc.constantFrom('1.2.3.4', '', 'not-an-ip', '::1, 10.0.0.1'),
    cookie: fc.constantFrom('a=b', '__proto__=x', ';;;', ''),
  },
  { requiredKeys: [] },
);

/** The route's path (API Gateway syntax) with each `{parameter}` replaced by a generated wire value. */
export const pathWith = (template: string, parameterValue: fc.Arbitrary<string>): fc.Arbitrary<string> => {
  const literals = template.split(/\{\w+\+?\}/);
  return fc
    .array(parameterValue, { minLength: literals.length - 1, maxLength: literals.length - 1 })
    .map((values) => literals.map((literal, i) => `${i === 0 ? '' : values[i - 1]}${literal}`).join(''));
};

/** The route's literal path bent out of shape: trailing garbage, doubled slashes, other case, encoded letters. */
export const mangledPath = (template: string, parameterValue: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc
    .tuple(
      pathWith(template, parameterValue),
      fc.integer({ min: 0, max: 5 }),
      fc.constantFrom('/', '/..', '/.', '%20', ';x', '%00', '/%2e%2e', '//'),
    )
    .map(([path, how, suffix]) => {
      switch (how) {
        case 0:
          return `${path}${suffix}`;
        case 1:
          return path.replace(/\//g, '//');
        case 2:
          return path.toUpperCase();
        case 3:
          return path.replace('c', '%63');
        case 4:
          return `/.${path}`;
        default:
          return `${path}/..${path}`;
      }
    });
