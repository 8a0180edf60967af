/**
 * The journey stats route's schemas, apart from the journeys' other schemas so that route carries none of the
 * definition's (schemas.ts re-exports them: the document names them the same).
 */
import { FIRST_CLIENT_JOURNEY_ID, SPLIT_WINNER_METRICS } from '../../public/journey-rules.js';
import { plainIdParam } from '../../validation/plain-id.js';
import * as z from '../../validation/zod.js';
import { StatsQuery } from '../stats/schemas.js';

/** `{id}` of the journey paths; anything that is not a plain id names no journey (→ 404). */
export const JourneyIdParams = z.object({
  id: plainIdParam(
    9,
    `The journey id: 1–8 the system journeys (the workflows), ${FIRST_CLIENT_JOURNEY_ID} and up your own`,
  ),
});

/** The days of GET /client/journeys/{id}/stats, as GET /client/stats takes them. */
export const JourneyStatsQuery = z.pick(StatsQuery, { from: true, to: true });

const stepCount = (description: string) => z.int().check(z.meta({ description }));

export const JourneyStatsView = z.object({
  journey_id: z.int(),
  from: z.string(),
  to: z.string(),
  counted_at: z.string().check(z.meta({ description: 'When the counters were read' })),
  steps: z.array(
    z.object({
      step_id: z.string(),
      entered: stepCount('Runs that entered the step in the range'),
      waiting: stepCount('Runs on the step now (whatever the range)'),
      left: stepCount('Runs that left the step to another step or a null edge'),
      sent: stepCount('E-mails the step sent (claimed for SES; given back if the send never happened)'),
      delivered: stepCount("The step's e-mails delivered (SES Delivery)"),
      human_opens: stepCount(
        "The step's e-mails opened by a person, each once (first human open; Apple Mail Privacy Protection, link scanners and other machines never count here)",
      ),
      human_clicks: stepCount("The step's e-mails clicked by a person, each once (first human click)"),
      machine_opens: stepCount(
        "Opens of the step's e-mails by machines (privacy proxies, scanners, prefetchers), every one counted",
      ),
      machine_clicks: stepCount("Clicks on the step's e-mails by machines (link scanners), every one counted"),
      converted: stepCount(
        "The step's e-mails converted: the contact's last e-mail of the journey was this step's and an exit event came within the conversion window (once per e-mail, on the exit's day)",
      ),
      completed: stepCount('Runs that ended here by a null edge'),
      exited: stepCount('Runs that ended here by an exit step or an exit event'),
      ended: stepCount('Runs the service stopped here (archive, erasure, a removed version)'),
      ways: z.record(z.string(), z.int()).check(
        z.meta({
          description: 'Runs that left by each way: branch name or otherwise, arm name, on_event, on_timeout',
        }),
      ),
    }),
  ),
  splits: z
    .array(
      z.object({
        step_id: z.string(),
        arms: z.array(
          z.object({
            arm: z.string().check(z.meta({ description: "The arm's name" })),
            runs: stepCount('Runs that took the arm since the split began (whatever the range)'),
            sent: stepCount("E-mails sent to the arm's runs, at any step after the split, since it began"),
            human_opens: stepCount('Of those e-mails, opened by a person (each once; machines never count)'),
            human_clicks: stepCount('Of those e-mails, clicked by a person (each once)'),
            converted: stepCount('Of those e-mails, converted (an exit event within the conversion window)'),
            human_open_rate: rate('human_opens / sent (0 when nothing was sent)'),
            human_click_rate: rate('human_clicks / sent'),
            conversion_rate: rate('converted / sent'),
          }),
        ),
        winner: z.nullable(
          z
            .object({
              arm: z
                .string()
                .check(z.meta({ description: 'The winning arm: every run reaching the split now takes it' })),
              metric: z.enum(SPLIT_WINNER_METRICS),
              rates: z
                .record(z.string(), z.number())
                .check(z.meta({ description: "Each arm's rate (metric per e-mail sent) when the winner was decided" })),
              sent: z
                .record(z.string(), z.int())
                .check(z.meta({ description: "Each arm's e-mails sent when the winner was decided" })),
              decided_at: z
                .string()
                .check(z.meta({ description: 'When the winner was decided (never changed after)' })),
            })
            .check(z.meta({ id: 'JourneySplitWinnerDecided' })),
        ),
      }),
    )
    .check(
      z.meta({
        description:
          "Each split step (the draft's, then any other counted): its arms' totals since it began and its automatic winner, null until decided (or without a `winner` rule)",
      }),
    ),
});

function rate(description: string) {
  return z.number().check(z.meta({ description: `${description}; 4 decimals` }));
}
