import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { hostOf } from '../../domain/webhooks/blocked-addresses.js';
import type { WebhookAttemptOutcome, WebhookRequest, WebhookSender } from '../../domain/webhooks/webhook-sender.js';
import { resolveDeliveryAddress, type HostLookup } from './delivery-address.js';

/** Webhook delivery limits: 10 s per attempt, the first 1 KB of the answer kept. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
export const RESPONSE_BODY_LIMIT = 1024;

export interface HttpWebhookSenderOptions {
  /** WEBHOOK_ALLOW_PRIVATE_URLS: the local runtime delivers to loopback and http; AWS requires https and public addresses. */
  allowPrivateUrls: boolean;
  timeoutMs?: number;
  lookup?: HostLookup;
}

/** A `lookup` that answers only the address already checked, so the connection cannot go anywhere else. */
const pinnedLookup = (address: string, family: number): LookupFunction =>
  ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as LookupFunction;

/** WebhookSender over node:http(s): no redirects followed, no connection reuse, one deadline for the whole attempt. */
export class HttpWebhookSender implements WebhookSender {
  constructor(private readonly options: HttpWebhookSenderOptions) {}

  async send(request: WebhookRequest): Promise<WebhookAttemptOutcome> {
    const started = performance.now();
    const timeoutMs = this.options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
    const failed = (error: string): WebhookAttemptOutcome => ({
      status_code: null,
      duration_ms: Math.round(performance.now() - started),
      response_body: null,
      error,
    });
    const url = URL.canParse(request.url) ? new URL(request.url) : undefined;
    if (!url || !['http:', 'https:'].includes(url.protocol)) return failed('invalid_url: not an absolute http(s) URL');
    if (!this.options.allowPrivateUrls && url.protocol !== 'https:') return failed('invalid_url: https is required');

    const deadline = AbortSignal.timeout(timeoutMs);
    const decision = await resolveDeliveryAddress(hostOf(url), {
      allowPrivateUrls: this.options.allowPrivateUrls,
      lookup: this.options.lookup,
    });
    if (!decision.ok) return failed(decision.error);
    if (deadline.aborted) return failed(`timeout: no answer within ${timeoutMs} ms`);

    const options: RequestOptions = {
      method: 'POST',
      headers: {
        ...request.headers,
        'content-length': Buffer.byteLength(request.body),
        'user-agent': 'email-lifecycle-webhooks/1',
      },
      lookup: pinnedLookup(decision.address, decision.family),
      signal: deadline,
      agent: false,
    };
    return new Promise<WebhookAttemptOutcome>((resolve) => {
      const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, options, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const finish = (error: string | null) => {
          resolve({
            status_code: res.statusCode ?? null,
            duration_ms: Math.round(performance.now() - started),
            response_body: Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT).toString('utf8'),
            error,
          });
          res.destroy();
        };
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (size >= RESPONSE_BODY_LIMIT) finish(null);
        });
        res.on('end', () => finish(null));
        res.on('error', () =>
          finish(deadline.aborted ? `timeout: the answer's body did not end within ${timeoutMs} ms` : null),
        );
      });
      req.on('error', (error) =>
        resolve(
          failed(
            deadline.aborted ? `timeout: no answer within ${timeoutMs} ms` : `connection_failed: ${error.message}`,
          ),
        ),
      );
      req.end(request.body);
    });
  }
}
