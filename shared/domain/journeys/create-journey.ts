import { conflict, invalidField, notFound } from '../../errors.js';
import { JOURNEY_LIMITS } from '../../public/journey-rules.js';
import { quotaMonthOf } from '../settings/quota-period.js';
import { DEFAULT_CONVERSION_WINDOW_DAYS } from '../workflows/goals.js';
import { systemJourneyOf } from './definition/system-journeys.js';
import type { JourneyDraft } from './journey-records.js';
import { maxJourneysOf, ownJourneyView, type ReadDeps } from './read-journeys.js';
import { findOwnJourney, isSystemJourneyId, systemWorkflowOf } from './journey-view.js';
import type { JourneyCreateBody, JourneyView } from './schemas.js';

/**
 * The draft a journey starts with when none is given: one send step that ends the run, every key present, so the
 * editor shows a complete shape and validation names the two things left to choose (the trigger's event type and the
 * step's template).
 */
export const skeletonDraft = (): JourneyDraft => ({
  trigger: { event: '', reentry: { mode: 'once' } },
  entry: 'send_1',
  steps: [{ id: 'send_1', type: 'send', template_id: 0, send_time: { mode: 0 }, next: null }],
  settings: {
    category: 'marketing',
    topic_id: null,
    critical: false,
    exit_events: [],
    conversion_window_days: DEFAULT_CONVERSION_WINDOW_DAYS,
  },
});

/** 422 `max` at `key` when the draft is larger than a journey may be, as JSON. */
export function assertDraftSize(draft: JourneyDraft, key: string): void {
  const bytes = Buffer.byteLength(JSON.stringify(draft), 'utf8');
  if (bytes > JOURNEY_LIMITS.definitionBytes) {
    throw invalidField('max', key, `Must be at most ${JOURNEY_LIMITS.definitionBytes} bytes as JSON; it is ${bytes}`);
  }
}

/** The draft a copy starts from: a system journey as the client customized it, or one of its journeys' draft. */
async function copiedDraft(
  deps: ReadDeps,
  clientId: number,
  copyOf: number,
): Promise<{ draft: JourneyDraft; copiedFrom?: number }> {
  if (isSystemJourneyId(copyOf)) {
    const workflow = systemWorkflowOf(copyOf);
    const customization = await deps.customizations.get(clientId, copyOf);
    return {
      draft: structuredClone(systemJourneyOf(workflow, customization)) as unknown as JourneyDraft,
      copiedFrom: copyOf,
    };
  }
  const source = await findOwnJourney(deps, clientId, copyOf).catch(() => {
    throw notFound('copy_of', 'Journey not found');
  });
  return { draft: structuredClone(source.draft), ...(source.copied_from ? { copiedFrom: source.copied_from } : {}) };
}

/**
 * POST /client/journeys: a new draft journey (draft_version 1), from the definition given, a copy, or the skeleton.
 * The client's plan bounds its journeys not archived: 409 `max` beyond, checked in the write that counts it.
 * Reads: the settings bundle (plan) with the copy's source in one wave; the write (the count, then one transaction);
 * the references its draft names.
 */
export async function createJourney(deps: ReadDeps, clientId: number, body: JourneyCreateBody): Promise<JourneyView> {
  if (body.copy_of !== undefined && body.definition !== undefined) {
    throw invalidField('format', 'copy_of', 'Give either definition or copy_of, not both');
  }
  const [bundle, source] = await Promise.all([
    deps.settings.load(clientId, quotaMonthOf(deps.clock.now())),
    body.copy_of === undefined ? undefined : copiedDraft(deps, clientId, body.copy_of),
  ]);
  const draft = source?.draft ?? body.definition ?? skeletonDraft();
  assertDraftSize(draft, 'definition');
  const max = maxJourneysOf(bundle);
  const at = deps.clock.now().toISOString();
  const created = await deps.journeys.create(
    clientId,
    {
      name: body.name,
      ...(body.description ? { description: body.description } : {}),
      status: 'draft',
      draft,
      draft_version: 1,
      ...(source?.copiedFrom ? { copied_from: source.copiedFrom } : {}),
      created_at: at,
      updated_at: at,
    },
    max,
  );
  if (created === 'limit') {
    throw conflict(
      'max',
      'journeys',
      `Your plan allows ${max} journeys that are not archived; archive or delete one first`,
    );
  }
  return ownJourneyView(deps, created);
}
