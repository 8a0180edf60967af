/**
 * What changed between two definitions of a journey (two versions, or a version and the draft), step by step id:
 * what the publisher reviews before runs follow the new version.
 */
import { isDeepStrictEqual } from 'node:util';
import * as z from '../../../validation/zod.js';
import type { JourneyDefinition, JourneyStep, StepId } from './types.js';

export interface JourneyDiff {
  trigger_changed: boolean;
  settings_changed: boolean;
  entry_changed: boolean;
  /** Step ids only `to` has, in its order. */
  added: StepId[];
  /** Step ids only `from` has, in its order. */
  removed: StepId[];
  /** Steps both have that differ, in `to`'s order, with the top-level fields that differ (a changed type lists `type`). */
  changed: { step_id: StepId; fields: string[] }[];
}

const stepIds = z.array(z.string().check(z.meta({ description: 'A step id' })));

export const JourneyDiffSchema = z
  .object({
    trigger_changed: z.boolean().check(z.meta({ description: 'Whether the trigger differs in any way' })),
    settings_changed: z.boolean().check(z.meta({ description: 'Whether the settings differ in any way' })),
    entry_changed: z.boolean().check(z.meta({ description: 'Whether runs start at another step' })),
    added: stepIds.check(z.meta({ description: "Ids of the steps only `to` has, in `to`'s order" })),
    removed: stepIds.check(
      z.meta({
        description:
          "Ids of the steps only `from` has, in `from`'s order: runs on one of them follow the move chosen when publishing",
      }),
    ),
    changed: z
      .array(
        z.object({
          step_id: z.string(),
          fields: z
            .array(z.string())
            .check(z.meta({ description: "The step's members that differ (added, removed or with another value)" })),
        }),
      )
      .check(z.meta({ description: "The steps both have that differ, in `to`'s order; runs on them stay on them" })),
  })
  .check(z.meta({ id: 'JourneyDiff', description: 'What changed from one definition of a journey to another.' }));

/** The top-level members of two steps that differ, deep-equal (key order aside), in a stable order. */
function changedFields(from: JourneyStep, to: JourneyStep): string[] {
  const a = from as unknown as Record<string, unknown>;
  const b = to as unknown as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  return keys.filter((key) => !isDeepStrictEqual(a[key], b[key])).sort();
}

export function diffDefinitions(from: JourneyDefinition, to: JourneyDefinition): JourneyDiff {
  const before = new Map(from.steps.map((s) => [s.id, s]));
  const after = new Map(to.steps.map((s) => [s.id, s]));
  return {
    trigger_changed: !isDeepStrictEqual(from.trigger, to.trigger),
    settings_changed: !isDeepStrictEqual(from.settings, to.settings),
    entry_changed: from.entry !== to.entry,
    added: to.steps.filter((s) => !before.has(s.id)).map((s) => s.id),
    removed: from.steps.filter((s) => !after.has(s.id)).map((s) => s.id),
    changed: to.steps.flatMap((s) => {
      const old = before.get(s.id);
      const fields = old ? changedFields(old, s) : [];
      return fields.length > 0 ? [{ step_id: s.id, fields }] : [];
    }),
  };
}
