/**
 * The earliest instant after `now` at which a time-relative condition of any of the definitions could change its
 * answer for this contact, with nothing else changing: a timestamp leaving a `within_days` window, a counted event
 * leaving an event_count window. Pure. Every condition's answer is constant between now and that instant (the
 * property test holds `segmentHolds` to it); an instant that turns out to change nothing only costs an evaluation.
 */
import { contactInstant, DAY_MS, sourceEngagedAt } from './evaluate.js';
import { leafSpecId } from './specs.js';
import type { SegmentCondition, SegmentDefinition, SegmentInput } from './types.js';

export function nextEdgeOf(
  definitions: readonly SegmentDefinition[],
  input: SegmentInput,
  now: Date,
): Date | undefined {
  const nowMs = now.getTime();
  let earliest: number | undefined;
  const consider = (at: number | undefined) => {
    if (at !== undefined && at > nowMs && (earliest === undefined || at < earliest)) earliest = at;
  };
  for (const definition of definitions)
    for (const group of definition.groups)
      for (const condition of group.conditions) edgesOf(condition, input, consider);
  return earliest === undefined ? undefined : new Date(earliest);
}

function edgesOf(condition: SegmentCondition, input: SegmentInput, consider: (at: number | undefined) => void): void {
  switch (condition.on) {
    case 'date': {
      if (condition.op !== 'within_days' && condition.op !== 'not_within_days') return;
      const at = contactInstant(input.contact, condition.field);
      // Within N days holds while now < at + N days: it flips at that instant.
      if (at !== undefined) consider(at + Number(condition.value) * DAY_MS);
      return;
    }
    case 'engagement': {
      if (condition.op === 'never_opened' || condition.op === 'not_opened' || condition.within_days === undefined)
        return;
      if (condition.source) {
        const at = sourceEngagedAt(input, condition.source, condition.op === 'human_clicked');
        if (at !== undefined) consider(at + condition.within_days * DAY_MS);
        return;
      }
      const field = condition.op === 'human_opened' ? 'last_email_opened_at' : 'last_email_clicked_at';
      const at = contactInstant(input.contact, field);
      if (at !== undefined) consider(at + condition.within_days * DAY_MS);
      return;
    }
    case 'event_count': {
      const days = condition.within_days;
      if (days === undefined) return;
      const times = [...(input.counters?.recent[leafSpecId(condition)] ?? [])].sort((a, b) => b - a);
      const leaves = (nth: number) => {
        const seconds = times[nth - 1];
        return seconds === undefined ? undefined : seconds * 1000 + days * DAY_MS;
      };
      // The count reaches below N when the N-th newest leaves the window (at_least N stops holding), and at or below
      // N when the (N+1)-th leaves (at_most N starts holding); exactly N reads both.
      if (condition.op !== 'at_most' && condition.count >= 1) consider(leaves(condition.count));
      if (condition.op !== 'at_least') consider(leaves(condition.count + 1));
      return;
    }
    default:
      return;
  }
}
