import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createFaultInjection } from '../../../../shared/adapters/faults/fault-injection.js';
import { createLocalEngine, type LocalEngine } from '../../../../local/engine/local-engine.js';

/**
 * The local engine's fault wiring (local/engine/local-engine.ts): the container's mailer and queue are wrapped, the
 * engine's own queue is not, and the mailer fault sits outside the SES simulator.
 */
const email = { from: 'hello@acme.example', to: 'ada@example.com', subject: 'S', html: '<p>H</p>', text: 'T' };

/** Answers every SES v2 SendEmail like aws-ses-v2-local, and counts them. */
async function fakeSes(): Promise<{ url: string; sends: () => number; server: Server }> {
  let sends = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      sends += 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ MessageId: `ses-${sends}` }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, sends: () => sends, server };
}

let engine: LocalEngine | undefined;
let ses: Server | undefined;
afterEach(async () => {
  await engine?.stop();
  ses?.close();
  engine = ses = undefined;
});

describe('createLocalEngine with faults', () => {
  it('fails the container queue but not the engine queue the scheduler and SES notifications use', async () => {
    // Prepare
    const faults = createFaultInjection({ spec: 'sqs:send-fail:1', seed: 1 });
    engine = createLocalEngine({ sesUrl: 'http://127.0.0.1:9', region: 'us-east-1', faults });
    // Act
    const sent = engine.overrides.queue.send('workflow', { client_id: 1, execution_id: 1 }, { delaySeconds: 900 });
    await engine.queue.send('workflow', { client_id: 1, execution_id: 2 }, { delaySeconds: 900 });
    // Assess
    await expect(sent).rejects.toMatchObject({ name: 'InternalError' });
    expect(engine.queue.depth('workflow')).toBe(1);
    expect(faults.counts()).toEqual({ sqs: { calls: 1, injected: { 'send-fail': 1 }, total: 1 } });
  });

  it('resets after SES accepted the e-mail and after its status notifications were queued', async () => {
    // Prepare
    const server = await fakeSes();
    ses = server.server;
    const faults = createFaultInjection({ spec: 'ses:reset-after-send:1', seed: 1 });
    engine = createLocalEngine({ sesUrl: server.url, region: 'us-east-1', faults });
    // Act
    const error = await engine.overrides.mailer.send(email).catch((e: unknown) => e);
    // Assess: no timer ran since the send, so the notifications are still queued.
    expect(error).toMatchObject({ code: 'ECONNRESET', message: 'socket hang up' });
    expect(server.sends()).toBe(1);
    expect(engine.queue.depth('ses-status')).toBe(2); // Send, then Delivery a second later
    expect(faults.counts().ses?.injected).toEqual({ 'reset-after-send': 1 });
  });

  it('leaves the ports unwrapped without faults', () => {
    // Act
    engine = createLocalEngine({ sesUrl: 'http://127.0.0.1:9', region: 'us-east-1' });
    // Assess
    expect(engine.overrides.queue).toBe(engine.queue);
  });
});
