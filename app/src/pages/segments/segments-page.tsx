import { useMemo, useState } from 'preact/hooks';
import { SEGMENT_LIMITS } from '../../../../shared/public/segment-rules.js';
import type { Api } from '../../api/client.js';
import { Link } from '../../components/link.js';
import { answerOf } from '../../data/answer.js';
import { useAction } from '../../data/use-action.js';
import { useLoad } from '../../data/use-load.js';
import type { PageProps } from '../../page.js';
import { navigate } from '../../router.js';
import { can } from '../../session.js';
import { type Column, DataTable } from '../../ui/data-table.js';
import { FailureAlert } from '../../ui/failure-alert.js';
import { Form } from '../../ui/form.js';
import { FormActions } from '../../ui/form-actions.js';
import { TextField } from '../../ui/inputs.js';
import { PageHead } from '../../ui/page-head.js';
import { LoadStatus } from '../../ui/status.js';
import { When } from '../../ui/when.js';
import { readJson } from '../journeys/journey-json.js';
import { ConditionsEditor } from './conditions-editor.js';
import {
  backfillShare,
  countText,
  definitionKeysOf,
  jsonOf,
  type Segment,
  type SegmentSummary,
  STARTER_DEFINITION,
  type SegmentDefinition,
} from './segment-text.js';

/** A segment's state as a word: ready, or building (with how far its backfill has come, when known: its page). */
export function SegmentStatusText(props: {
  segment: Pick<SegmentSummary, 'status'>;
  backfill?: Segment['backfill'] | undefined;
}) {
  if (props.segment.status !== 'building') return <span class="outcome outcome-ready">ready</span>;
  const share = backfillShare(props.backfill);
  return (
    <span class="outcome outcome-building">building{share === undefined ? '' : ` ${Math.floor(share * 100)} %`}</span>
  );
}

/**
 * Segments: the client's saved conditions on contacts, with how many contacts are members now; roles with `content`
 * write a new one as JSON with its live count, and it opens on its page.
 */
export function SegmentsPage({ api, signedIn }: PageProps) {
  const list = useLoad(
    async (signal) => {
      const answer = await answerOf(api.GET('/api/v1/client/segments', { signal }), 'Reading the segments');
      return { segments: answer.data.segments, max: answer.meta.max_segments };
    },
    [api],
  );
  const editable = can(signedIn, 'content');
  const data = list.data;
  const full = data !== undefined && data.segments.length >= data.max;
  return (
    <section aria-labelledby="sg-title">
      <PageHead id="sg-title" title="Segments" />
      <p class="hint">
        A segment is a saved condition on contacts (their fields, custom fields, tags, topics, subscription, dates,
        events and engagement). Its members are kept as contacts change, and a broadcast can be sent to them.
      </p>
      <LoadStatus loaded={list} />
      {data && (
        <>
          <DataTable
            id="sg-table"
            label="Segments table"
            caption={`${data.segments.length} of at most ${data.max} segments`}
            rows={data.segments}
            columns={COLUMNS}
            empty={
              <div class="card empty">
                <p>No segment yet.{editable ? ' Write the first one below.' : ''}</p>
              </div>
            }
          />
          {editable && !full && <NewSegment api={api} />}
          {editable && full && (
            <p class="hint">Your plan holds at most {data.max} segments: delete one to write another.</p>
          )}
          {!editable && <p class="hint">Your role reads the segments; a member, an admin or the owner writes them.</p>}
        </>
      )}
    </section>
  );
}

const COLUMNS: Column<SegmentSummary>[] = [
  {
    head: 'Segment',
    rowHeader: true,
    class: 'wrap-anywhere',
    cell: (segment) => (
      <>
        <Link page="segment" params={{ id: String(segment.id) }}>
          {segment.name}
        </Link>
        <small>
          #{segment.id}
          {segment.description ? ` · ${segment.description}` : ''}
        </small>
      </>
    ),
  },
  { head: 'Members', cell: (segment) => countText(segment.count) },
  { head: 'Counted', cell: (segment) => (segment.counted_at ? <When at={segment.counted_at} /> : '—') },
  { head: 'Status', cell: (segment) => <SegmentStatusText segment={segment} /> },
];

/** POST /client/segments {name, definition}: the segment starts building its members, and its page opens. */
function NewSegment({ api }: { api: Api }) {
  const [name, setName] = useState('');
  const [text, setText] = useState(() => jsonOf(STARTER_DEFINITION));
  const read = useMemo(() => readJson(text), [text]);
  const create = useAction(async () => {
    if (read.problems.length > 0) throw new Error('The conditions are not JSON: fix the places listed above them.');
    const body = { name: name.trim(), definition: read.value as SegmentDefinition };
    const answer = await answerOf(api.POST('/api/v1/client/segments', { body }), 'Creating the segment');
    navigate('segment', { id: String(answer.data.id) });
  });
  return (
    <Form
      class="card page-section stacked-form"
      onSubmit={create.run}
      failure={create.failure}
      aria-labelledby="sg-new-title"
    >
      <h2 id="sg-new-title">New segment</h2>
      <TextField
        id="sg-new-name"
        label="Name"
        name="name"
        value={name}
        onValue={setName}
        maxLength={SEGMENT_LIMITS.nameChars}
        hint="What the contacts have in common, e.g. “Pro plan”."
        required
      />
      <ConditionsEditor id="sg-new-definition" api={api} text={text} onText={setText} failure={create.failure} />
      <FailureAlert shownAt={definitionKeysOf(create.failure)} />
      <FormActions submit="Create segment" busy={create.busy} busyLabel="Creating…" />
    </Form>
  );
}
