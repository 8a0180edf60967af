import { TOPIC } from './contacts-fixtures.js';
import { ok } from './fake-api.js';

/** The broadcast page's side reads: the segments and topics it names the audience by. */
export const AUDIENCE_READS = {
  'GET /api/v1/client/segments': ok(
    { segments: [{ id: 7, name: 'Pro plan', status: 'ready', count: 1240, counted_at: null, version: 1 }] },
    { total: 1, max_segments: 50 },
  ),
  'GET /api/v1/client/topics': ok({ topics: [TOPIC] }, { total: 1, max_topics: 20 }),
};

export const ZERO_TOTALS = {
  sent: 0,
  delivered: 0,
  human_opens: 0,
  human_clicks: 0,
  machine_opens: 0,
  machine_clicks: 0,
  bounced: 0,
  complained: 0,
  unsubscribed: 0,
  skipped: 0,
  failed: 0,
  deferred: 0,
  conversions: 0,
};

export const DEFINITION = {
  audience: { segment_id: 7 },
  category: 'marketing',
  topic_id: null,
  variants: [{ template_id: 12 }],
  schedule: { mode: 'now' },
  priority_score: 30,
};

/** GET /client/broadcasts/{id}'s answer: a draft unless `over` says otherwise. */
export const detailOf = (over: Record<string, unknown> = {}) => ({
  id: 5,
  name: 'November news',
  status: 'draft',
  draft_version: 1,
  definition: DEFINITION,
  scheduled_at: null,
  started_at: null,
  paused_at: null,
  cancelled_at: null,
  completed_at: null,
  kind: 'broadcast',
  parent_id: null,
  resend_id: null,
  recipients: null,
  totals: ZERO_TOTALS,
  ab: null,
  created_at: '2026-11-28T20:00:00Z',
  updated_at: '2026-11-28T20:00:00Z',
  links: [],
  links_total: 0,
  ...over,
});

/** One variant's row of an A/B result, counted as the API counts it (rates per delivered, 4 decimals). */
export const abVariantOf = (
  variant: number,
  counts: { sent: number; delivered: number; human_opens: number; human_clicks?: number },
  subject: string | null,
) => ({
  variant,
  template_id: 12 + variant,
  subject,
  ...ZERO_TOTALS,
  human_clicks: 0,
  ...counts,
  human_open_rate: Math.round((counts.human_opens / counts.delivered) * 10_000) / 10_000,
  human_click_rate: Math.round(((counts.human_clicks ?? 0) / counts.delivered) * 10_000) / 10_000,
  conversion_rate: 0,
});
