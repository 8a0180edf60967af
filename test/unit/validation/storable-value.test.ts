import { describe, expect, it } from 'vitest';
import * as z from '../../../shared/validation/zod.js';
import { issuesToItems } from '../../../shared/validation/issue-items.js';
import { freeFormProblems, numberProblem, storableNumber } from '../../../shared/validation/storable-value.js';
import { boundedObject, FREE_FORM_BOUNDS } from '../../../shared/domain/free-form/bounded-object.js';
import { ContactBody } from '../../../shared/domain/contacts/schemas.js';
import { EventBody } from '../../../shared/domain/events/schemas.js';
import { RenderPreviewBody } from '../../../shared/domain/templates/schemas.js';

/** One rule for every number and free-form object the store must hold. */
const itemsOf = (schema: z.ZodMiniType, value: unknown) => {
  const result = schema.safeParse(value, { reportInput: true });
  return result.success ? [] : issuesToItems(result.error.issues);
};

describe('numberProblem', () => {
  it.each([0, -0, 1, -1, 0.1, 12.5, 1e-130, -1e-130, 2 ** 53 - 1, -(2 ** 53 - 1), 1e15])('accepts %s', (n) => {
    expect(numberProblem(n)).toBeUndefined();
  });

  it.each([
    [58706923201866990, 'max'],
    [1e300, 'max'],
    [-1e300, 'max'],
    [2 ** 53, 'max'],
    [1e-200, 'min'],
    [-1e-131, 'min'],
    [Number.POSITIVE_INFINITY, 'type'],
    [Number.NaN, 'type'],
  ])('refuses %s (%s)', (n, condition) => {
    expect(numberProblem(n)?.condition).toBe(condition);
  });
});

describe('storableNumber', () => {
  it.each([
    [1e300, [{ condition: 'max', key: '', error: 'Must be at most 9007199254740991 (2^53 − 1)' }]],
    [-58706923201866990, [{ condition: 'min', key: '', error: 'Must be at least -9007199254740991 (−(2^53 − 1))' }]],
    [1e-200, [{ condition: 'min', key: '', error: 'Must be 0 or at least 1e-130 in magnitude' }]],
    ['1', [{ condition: 'type', key: '', error: 'Must be a number' }]],
  ])('answers %s with exactly %j', (value, items) => {
    expect(itemsOf(storableNumber(), value)).toEqual(items);
  });

  it('states its bounds in the JSON Schema', () => {
    expect(z.toJSONSchema(storableNumber(), { io: 'input' })).toMatchObject({
      type: 'number',
      minimum: -9007199254740991,
      maximum: 9007199254740991,
    });
  });
});

describe('freeFormProblems', () => {
  it('names every unstorable number and empty key by its path, in document order', () => {
    const value = { '': 1, a: [1, { b: 1e-200, '': 2 }], n: 1e300, ok: { deep: [0.5, 'x', null, true] } };
    expect(freeFormProblems(value, FREE_FORM_BOUNDS)).toEqual([
      { path: [], condition: 'min', message: 'Must not have an empty key' },
      { path: ['a', 1], condition: 'min', message: 'Must not have an empty key' },
      { path: ['a', 1, 'b'], condition: 'min', message: 'Must be 0 or at least 1e-130 in magnitude' },
      { path: ['n'], condition: 'max', message: 'Must be at most 9007199254740991 (2^53 − 1) in magnitude' },
    ]);
  });

  it('refuses nesting beyond the depth at the member that breaks it, without overflowing the stack', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 10_000; i += 1) deep = { d: deep };
    const problems = freeFormProblems(deep, FREE_FORM_BOUNDS);
    expect(problems).toEqual([
      {
        path: Array(9).fill('d'),
        condition: 'max',
        message: 'Must not nest objects or arrays more than 8 levels deep',
      },
    ]);
  });

  it('refuses a value over the byte limit as a whole, and keys that are too long or __proto__', () => {
    expect(freeFormProblems({ s: 'x'.repeat(40_000) }, FREE_FORM_BOUNDS)).toEqual([
      { path: [], condition: 'max', message: 'Must be at most 32768 bytes as JSON' },
    ]);
    expect(freeFormProblems(JSON.parse('{"__proto__": {"x": 1}}'), FREE_FORM_BOUNDS)).toEqual([
      { path: ['__proto__'], condition: 'format', message: 'The key __proto__ is not allowed' },
    ]);
    expect(freeFormProblems({ ['k'.repeat(129)]: 1 }, FREE_FORM_BOUNDS)).toEqual([
      { path: ['k'.repeat(40)], condition: 'max', message: 'Keys must be at most 128 characters' },
    ]);
  });

  it('reports at most 20 problems of one object', () => {
    const many = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`n${i}`, 1e300]));
    expect(freeFormProblems(many, FREE_FORM_BOUNDS)).toHaveLength(20);
  });
});

describe('unstorable inputs answer precise items', () => {
  it.each([
    [
      EventBody,
      { type: 'signup', email: 'a@example.com', amount: 58706923201866990 },
      [{ condition: 'max', key: 'amount', error: 'Must be at most 9007199254740991 (2^53 − 1)' }],
    ],
    [
      EventBody,
      { type: 'signup', email: 'a@example.com', amount: 1e300 },
      [{ condition: 'max', key: 'amount', error: 'Must be at most 9007199254740991 (2^53 − 1)' }],
    ],
    [
      EventBody,
      { type: 'signup', email: 'a@example.com', metadata: { n: 1e-200 } },
      [{ condition: 'min', key: 'metadata.n', error: 'Must be 0 or at least 1e-130 in magnitude' }],
    ],
    [
      EventBody,
      { type: 'signup', email: 'a@example.com', metadata: { '': 1 } },
      [{ condition: 'min', key: 'metadata', error: 'Must not have an empty key' }],
    ],
    [
      ContactBody,
      { email: 'a@example.com', custom_fields: { x: 1e300 } },
      [{ condition: 'max', key: 'custom_fields.x', error: 'Must be at most 9007199254740991 (2^53 − 1)' }],
    ],
    [
      ContactBody,
      { email: 'a@example.com', custom_fields: { x: -1e-200 } },
      [{ condition: 'min', key: 'custom_fields.x', error: 'Must be 0 or at least 1e-130 in magnitude' }],
    ],
    [
      ContactBody,
      { email: 'a@example.com', custom_fields: { x: [1] } },
      [
        {
          condition: 'format',
          key: 'custom_fields.x',
          error: 'Must be a string (at most 1000 characters), a number, a boolean or null',
        },
      ],
    ],
    [
      RenderPreviewBody,
      { vars: { a: { '': 1e300 } } },
      [{ condition: 'min', key: 'vars.a', error: 'Must not have an empty key' }],
    ],
  ] as const)('%#: answers exactly the items', (schema, body, items) => {
    expect(itemsOf(schema, body)).toEqual(items);
  });

  it('accepts storable values everywhere', () => {
    expect(
      itemsOf(EventBody, {
        type: 'signup',
        email: 'a@example.com',
        amount: 9007199254740991,
        metadata: { n: 1e-130, m: [0, -2.5] },
      }),
    ).toEqual([]);
    expect(itemsOf(ContactBody, { email: 'a@example.com', custom_fields: { x: -9007199254740991, y: 0.001 } })).toEqual(
      [],
    );
    expect(itemsOf(boundedObject(), { a: { b: [1, 2, { c: 'd' }] } })).toEqual([]);
  });
});
