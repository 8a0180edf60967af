import { describe, expect, it } from 'vitest';
import { FaultSpecError, formatFaultSpec, parseFaultSpec } from '../../../../shared/adapters/faults/fault-spec.js';

const problemsOf = (spec: string): readonly string[] => {
  try {
    parseFaultSpec(spec);
  } catch (error) {
    if (error instanceof FaultSpecError) return error.problems;
    throw error;
  }
  throw new Error(`"${spec}" was accepted`);
};

describe('parseFaultSpec', () => {
  it('reads every entry of the example in docs/development.md, in order, as typed rules', () => {
    // Act
    const rules = parseFaultSpec('ses:reset-after-send:0.05,dynamo:throttle:0.05,sqs:send-fail:0.02');
    // Assess
    expect(rules).toEqual([
      { target: 'ses', kind: 'reset-after-send', rate: 0.05 },
      { target: 'dynamo', kind: 'throttle', rate: 0.05 },
      { target: 'sqs', kind: 'send-fail', rate: 0.02 },
    ]);
  });

  it.each([
    { spec: 'ses:timeout-after-send:1', rule: { target: 'ses', kind: 'timeout-after-send', rate: 1 } },
    { spec: 'ses:throttle:0', rule: { target: 'ses', kind: 'throttle', rate: 0 } },
    { spec: 'ses:error-5xx-before-send:.5', rule: { target: 'ses', kind: 'error-5xx-before-send', rate: 0.5 } },
    { spec: 'sqs:throttle:1.0', rule: { target: 'sqs', kind: 'throttle', rate: 1 } },
    { spec: 'dynamo:reset:0.25', rule: { target: 'dynamo', kind: 'reset', rate: 0.25 } },
    { spec: 'dynamo:reset-after-write:0.02', rule: { target: 'dynamo', kind: 'reset-after-write', rate: 0.02 } },
    { spec: ' dynamo : throttle : 0.1 ', rule: { target: 'dynamo', kind: 'throttle', rate: 0.1 } },
  ])('reads $spec', ({ spec, rule }) => {
    // Act
    const rules = parseFaultSpec(spec);
    // Assess
    expect(rules).toEqual([rule]);
  });

  it.each(['', '  ', ',', ' , '])('reads the blank value %j as no faults', (spec) => {
    // Act
    const rules = parseFaultSpec(spec);
    // Assess
    expect(rules).toEqual([]);
  });

  it.each([
    { spec: 'smtp:throttle:0.1', problem: '"smtp:throttle:0.1": unknown target (one of ses, sqs, dynamo)' },
    {
      spec: 'ses:reset:0.1',
      problem:
        '"ses:reset:0.1": unknown ses kind (one of reset-after-send, timeout-after-send, throttle, error-5xx-before-send)',
    },
    {
      spec: 'sqs:reset-after-send:0.1',
      problem: '"sqs:reset-after-send:0.1": unknown sqs kind (one of send-fail, throttle)',
    },
    {
      spec: 'dynamo:send-fail:0.1',
      problem: '"dynamo:send-fail:0.1": unknown dynamo kind (one of throttle, reset, reset-after-write)',
    },
    { spec: 'ses:throttle:1.5', problem: '"ses:throttle:1.5": rate must be at most 1' },
    { spec: 'ses:throttle:-0.1', problem: '"ses:throttle:-0.1": rate must be a decimal number' },
    { spec: 'ses:throttle:5%', problem: '"ses:throttle:5%": rate must be a decimal number' },
    { spec: 'ses:throttle:', problem: '"ses:throttle:": rate must be a decimal number' },
    { spec: 'ses:throttle', problem: '"ses:throttle": expected target:kind:rate' },
    { spec: 'ses:throttle:0.1:2', problem: '"ses:throttle:0.1:2": expected target:kind:rate' },
    {
      spec: 'ses:boom:2',
      problem:
        '"ses:boom:2": unknown ses kind (one of reset-after-send, timeout-after-send, throttle, error-5xx-before-send), rate must be at most 1',
    },
  ])('refuses $spec, naming the entry', ({ spec, problem }) => {
    // Act
    const problems = problemsOf(spec);
    // Assess
    expect(problems).toEqual([problem]);
  });

  it('reports every bad entry at once in one error message', () => {
    // Act
    const act = () => parseFaultSpec('ses:throttle:0.1,ses:nope:0.1,dynamo:throttle:2');
    // Assess
    expect(act).toThrow(
      'Invalid FAULTS: "ses:nope:0.1": unknown ses kind (one of reset-after-send, timeout-after-send, throttle, ' +
        'error-5xx-before-send); "dynamo:throttle:2": rate must be at most 1',
    );
  });

  it('refuses a target and kind listed twice', () => {
    // Act
    const problems = problemsOf('sqs:send-fail:0.1,sqs:send-fail:0.2');
    // Assess
    expect(problems).toEqual(['"sqs:send-fail:0.2": listed twice']);
  });

  it('refuses rates of one target that add up to more than 1 (one draw picks at most one fault)', () => {
    // Act
    const problems = problemsOf('ses:throttle:0.6,ses:reset-after-send:0.5,dynamo:throttle:0.6');
    // Assess
    expect(problems).toEqual(['the ses rates add up to 1.1, more than 1']);
  });

  it('accepts rates of one target that add up to exactly 1', () => {
    // Act
    const rules = parseFaultSpec('ses:throttle:0.7,ses:reset-after-send:0.2,ses:timeout-after-send:0.1');
    // Assess
    expect(rules.map((r) => r.rate)).toEqual([0.7, 0.2, 0.1]);
  });

  it('writes rules back as the FAULTS text that produces them', () => {
    // Prepare
    const rules = parseFaultSpec(' ses:reset-after-send:.05 , dynamo:throttle:0.050 ');
    // Act
    const text = formatFaultSpec(rules);
    // Assess
    expect(text).toBe('ses:reset-after-send:0.05,dynamo:throttle:0.05');
    expect(parseFaultSpec(text)).toEqual(rules);
  });
});
