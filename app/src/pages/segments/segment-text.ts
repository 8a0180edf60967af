import type { ErrorItem } from '../../api/client.js';
import type { components } from '../../api/openapi.js';
import type { Failure } from '../../data/answer.js';

/** The first definition a new segment's text shows: one group, one condition, to change (the API guide lists every leaf). */
export const STARTER_DEFINITION = {
  match: 'all',
  groups: [{ match: 'all', conditions: [{ on: 'custom_field', name: 'plan', op: 'eq', value: 'pro' }] }],
};

/** A definition as the text area shows it: two spaces a level, as the API returns it. */
export const jsonOf = (value: unknown): string => JSON.stringify(value, null, 2);

/** One issue of a definition the API found, at its dotted path inside the definition (`groups.0.conditions.1.value`). */
export interface DefinitionIssue {
  path: string;
  condition: string;
  error: string;
}

/**
 * The failure's items about the definition, with their path inside it: the API names them from the body
 * (`definition.groups.0…`), the text area holds the definition alone. Items about other fields (name) stay theirs.
 */
export function definitionIssuesOf(failure: Failure | undefined): DefinitionIssue[] {
  return (failure?.errors ?? [])
    .filter((item: ErrorItem) => item.key === 'definition' || item.key?.startsWith('definition.'))
    .map((item) => ({
      path: (item.key ?? '').replace(/^definition\.?/, ''),
      condition: item.condition,
      error: item.error,
    }));
}

/** The failure's keys the conditions editor lists itself, for the form's alert to leave out. */
export const definitionKeysOf = (failure: Failure | undefined): string[] =>
  (failure?.errors ?? []).flatMap((item) =>
    item.key === 'definition' || item.key?.startsWith('definition.') ? [item.key] : [],
  );

const COUNT = new Intl.NumberFormat('en');

/** A number as the page writes it (1,240). */
export const countText = (n: number): string => COUNT.format(n);

/** The live count's line: "12 contacts match" or "≈ 1,240 of 5,000 contacts sampled match". */
export function previewText(preview: Pick<Preview, 'count' | 'exact' | 'sampled'>): string {
  if (preview.exact)
    return `${countText(preview.count)} ${preview.count === 1 ? 'contact matches' : 'contacts match'} now.`;
  return `≈ ${countText(preview.count)} of ${countText(preview.sampled)} contacts sampled match now.`;
}

/** How far the backfill has come, as a share (0–1) of the contact listing's parts it has finished. */
export function backfillShare(
  backfill: { shards_done: number; shards: number } | null | undefined,
): number | undefined {
  if (!backfill || backfill.shards <= 0) return undefined;
  return Math.min(1, backfill.shards_done / backfill.shards);
}

/** A definition as the API takes it (the text typed is sent as it reads: the API judges it, and lists its issues). */
export type SegmentDefinition = components['schemas']['SegmentDefinition'];

/** A segment as the list shows it. */
export type SegmentSummary = components['schemas']['SegmentListItem'];

/** A segment with its definition and backfill, as its page shows it. */
export type Segment = components['schemas']['Segment'];

/** What a preview answered: exact when it read every contact, else the share of the contacts it sampled. */
export type Preview = components['schemas']['SegmentPreview'];
