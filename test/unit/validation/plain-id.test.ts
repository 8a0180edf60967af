import { describe, expect, it } from 'vitest';
import * as z from '../../../shared/validation/zod.js';
import { plainIdParam } from '../../../shared/validation/plain-id.js';
import { EventIdParams } from '../../../shared/domain/events/schemas.js';
import { ExecutionIdParams } from '../../../shared/domain/executions/schemas.js';
import { TemplateIdParams } from '../../../shared/domain/templates/schemas.js';
import { WorkflowIdParams } from '../../../shared/domain/workflows/schemas.js';

describe('plainIdParam', () => {
  const id = plainIdParam(4, 'An id');

  it.each([
    ['1', 1],
    ['0042', 42],
    ['9999', 9999],
  ])('reads the plain id %s as %i', (raw, expected) => {
    expect(z.parse(id, raw)).toBe(expected);
  });

  it.each(['', '10000', '12a', '-1', '1.5', ' 1', '1e3', '0x1f'])('turns %j into 0, which names no record', (raw) => {
    expect(z.parse(id, raw)).toBe(0);
  });

  it('is how every numeric path id is read, each with its own length', () => {
    expect(z.parse(EventIdParams, { id: '1'.repeat(16) })).toEqual({ id: 1_111_111_111_111_111 });
    expect(z.parse(EventIdParams, { id: '1'.repeat(17) })).toEqual({ id: 0 });
    expect(z.parse(ExecutionIdParams, { execution_id: '7' })).toEqual({ execution_id: 7 });
    expect(z.parse(ExecutionIdParams, { execution_id: 'seven' })).toEqual({ execution_id: 0 });
    expect(z.parse(TemplateIdParams, { id: '1'.repeat(15) })).toEqual({ id: 111_111_111_111_111 });
    expect(z.parse(TemplateIdParams, { id: '1'.repeat(16) })).toEqual({ id: 0 });
    expect(z.parse(WorkflowIdParams, { workflow_id: '123456789' })).toEqual({ workflow_id: 123_456_789 });
    expect(z.parse(WorkflowIdParams, { workflow_id: '1234567890' })).toEqual({ workflow_id: 0 });
  });
});
