import { describe, expect, it } from 'vitest';
import { FaultDice } from '../../../../shared/adapters/faults/fault-dice.js';
import { FaultyMailer, type SesFaultKind } from '../../../../shared/adapters/faults/faulty-mailer.js';
import { seededRandom } from '../../../../shared/adapters/faults/seeded-random.js';
import { permanentRejection } from '../../../../shared/adapters/ses/ses-errors.js';
import type { Mailer, MailSendResult, OutboundEmail } from '../../../../shared/platform.js';

const email: OutboundEmail = {
  from: 'hello@acme.example',
  to: 'ada@example.com',
  subject: 'S',
  html: '<p>H</p>',
  text: 'T',
};

/** A mailer that records what it sent and answers `result`. */
class RecordingMailer implements Mailer {
  readonly sent: OutboundEmail[] = [];
  constructor(private readonly result: MailSendResult = { kind: 'sent', providerMessageId: 'ses-0001' }) {}
  async send(message: OutboundEmail): Promise<MailSendResult> {
    this.sent.push(message);
    return this.result;
  }
}

const faultyMailer = (kind: SesFaultKind, rate: number, inner = new RecordingMailer(), seed = 1) => ({
  inner,
  mailer: new FaultyMailer(inner, new FaultDice([{ kind, rate }], seededRandom(seed))),
});

const caught = async (promise: Promise<unknown>): Promise<Record<string, unknown>> => {
  try {
    await promise;
  } catch (error) {
    return error as Record<string, unknown>;
  }
  throw new Error('the send did not fail');
};

describe('FaultyMailer', () => {
  it.each<SesFaultKind>(['reset-after-send', 'timeout-after-send', 'throttle', 'error-5xx-before-send'])(
    'never injects %s at rate 0: every e-mail goes through with the inner answer',
    async (kind) => {
      // Prepare
      const { inner, mailer } = faultyMailer(kind, 0);
      // Act
      const results = await Promise.all(Array.from({ length: 50 }, () => mailer.send(email)));
      // Assess
      expect(results.every((r) => r.kind === 'sent' && r.providerMessageId === 'ses-0001')).toBe(true);
      expect(inner.sent).toHaveLength(50);
      expect(mailer.counts).toEqual({ calls: 50, injected: { [kind]: 0 }, total: 0 });
    },
  );

  it('after a reset-after-send the e-mail was sent once, and the caller sees a connection reset without $metadata', async () => {
    // Prepare
    const { inner, mailer } = faultyMailer('reset-after-send', 1);
    // Act
    const error = await caught(mailer.send(email));
    // Assess
    expect(inner.sent).toEqual([email]);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: 'Error', code: 'ECONNRESET', message: 'socket hang up' });
    expect(error).not.toHaveProperty('$metadata');
    expect(mailer.counts).toEqual({ calls: 1, injected: { 'reset-after-send': 1 }, total: 1 });
  });

  it('after a timeout-after-send the e-mail was sent once, and the caller sees the SDK TimeoutError without $metadata', async () => {
    // Prepare
    const { inner, mailer } = faultyMailer('timeout-after-send', 1);
    // Act
    const error = await caught(mailer.send(email));
    // Assess
    expect(inner.sent).toEqual([email]);
    expect(error).toMatchObject({ name: 'TimeoutError' });
    expect(error).not.toHaveProperty('$metadata');
  });

  it('loses a rejection behind an after-send fault too (the answer never arrived)', async () => {
    // Prepare
    const { inner, mailer } = faultyMailer(
      'reset-after-send',
      1,
      new RecordingMailer({ kind: 'rejected', reason: 'MessageRejected' }),
    );
    // Act
    const error = await caught(mailer.send(email));
    // Assess
    expect(inner.sent).toHaveLength(1);
    expect(error).toMatchObject({ code: 'ECONNRESET' });
  });

  it('does not count an after-send fault when the inner send failed on its own', async () => {
    // Prepare
    const failing: Mailer = { send: async () => Promise.reject(new Error('SES down')) };
    const mailer = new FaultyMailer(failing, new FaultDice([{ kind: 'reset-after-send', rate: 1 }], seededRandom(1)));
    // Act
    const error = await caught(mailer.send(email));
    // Assess
    expect(error).toMatchObject({ message: 'SES down' });
    expect(mailer.counts).toEqual({ calls: 1, injected: { 'reset-after-send': 0 }, total: 0 });
  });

  it.each([
    { kind: 'throttle' as const, name: 'TooManyRequestsException', httpStatusCode: 429, fault: 'client' },
    {
      kind: 'error-5xx-before-send' as const,
      name: 'InternalServiceErrorException',
      httpStatusCode: 500,
      fault: 'server',
    },
  ])(
    'on $kind sends nothing and throws the SDK-shaped $name ($httpStatusCode)',
    async ({ kind, name, httpStatusCode, fault }) => {
      // Prepare
      const { inner, mailer } = faultyMailer(kind, 1);
      // Act
      const error = await caught(mailer.send(email));
      // Assess
      expect(inner.sent).toEqual([]);
      expect(error).toMatchObject({ name, $fault: fault, $metadata: { httpStatusCode } });
      expect(error['message']).toContain('injected fault');
      // Thrown (the queue retries), never read as a permanent refusal of this e-mail.
      expect(permanentRejection(error)).toBeUndefined();
      expect(mailer.counts.injected).toEqual({ [kind]: 1 });
    },
  );

  it('fails the same sends again when replayed with the same seed', async () => {
    // Prepare
    const run = async () => {
      const { mailer } = faultyMailer('throttle', 0.3, new RecordingMailer(), 2024);
      const outcomes: string[] = [];
      for (let i = 0; i < 40; i++)
        outcomes.push(
          await mailer.send(email).then(
            () => 'sent',
            () => 'throttled',
          ),
        );
      return outcomes;
    };
    // Act
    const first = await run();
    const replay = await run();
    // Assess
    expect(replay).toEqual(first);
    expect(first).toContain('sent');
    expect(first).toContain('throttled');
  });
});
