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
import { ConfirmButton } from '../../ui/confirm-button.js';
import { DataTable } from '../../ui/data-table.js';
import { FailureAlert } from '../../ui/failure-alert.js';
import { Form } from '../../ui/form.js';
import { FormActions } from '../../ui/form-actions.js';
import { TextField } from '../../ui/inputs.js';
import { PageHead } from '../../ui/page-head.js';
import { ActionStatus, Done, LoadStatus } from '../../ui/status.js';
import { When } from '../../ui/when.js';
import { readJson } from '../journeys/journey-json.js';
import { ConditionsEditor } from './conditions-editor.js';
import { useRereadWhile } from './reread.js';
import { countText, definitionKeysOf, jsonOf, type Segment, type SegmentDefinition } from './segment-text.js';
import { SegmentStatusText } from './segments-page.js';

/** How often a building segment's progress is read again. */
export const BUILDING_REREAD_MS = 3000;

const TABS = [
  { tab: 'conditions', name: 'Conditions' },
  { tab: 'members', name: 'Members' },
] as const;
type Tab = (typeof TABS)[number]['tab'];
const tabId = (tab: Tab) => `sg-tab-${tab}`;
const panelId = (tab: Tab) => `sg-panel-${tab}`;

/**
 * One segment (`/app/segment/N`): its members count and state (the backfill's progress while it builds), its
 * conditions as JSON with the live count (saved as a new version, which builds again) and its members, a page at a time.
 */
export function SegmentPage({ api, params, signedIn }: PageProps) {
  const id = params['id'] ?? '';
  if (!/^\d+$/.test(id)) {
    return (
      <section aria-labelledby="sg-missing-title">
        <h1 id="sg-missing-title">No such segment</h1>
        <p>
          {id ? `There is no segment named ${id}.` : 'The address names no segment.'} See{' '}
          <Link page="segments">every segment</Link>.
        </p>
      </section>
    );
  }
  // The tab rides in the address, so a reload or a shared link opens the same one.
  const tab: Tab = params['tab'] === 'members' ? 'members' : 'conditions';
  return <SegmentView key={id} api={api} id={id} tab={tab} writes={can(signedIn, 'content')} />;
}

function SegmentView({ api, id, tab, writes }: { api: Api; id: string; tab: Tab; writes: boolean }) {
  const path = { params: { path: { id } } };
  const loaded = useLoad(
    async (signal) =>
      (await answerOf(api.GET('/api/v1/client/segments/{id}', { ...path, signal }), 'Reading the segment'))
        .data as Segment,
    [api, id],
  );
  const segment = loaded.data;
  useRereadWhile(segment?.status === 'building', BUILDING_REREAD_MS, loaded);
  const setTab = (next: Tab) =>
    navigate('segment', next === 'conditions' ? { id } : { id, tab: next }, { replace: true });
  // What the last save said: kept here, as the form starts again on the version it saved.
  const [said, setSaid] = useState('');
  const remove = useAction(async () => {
    await answerOf(api.DELETE('/api/v1/client/segments/{id}', path), 'Deleting the segment');
    navigate('segments');
  });
  return (
    <section aria-labelledby="sg-segment-title">
      <p class="back-link">
        <Link page="segments">← Segments</Link>
      </p>
      <PageHead id="sg-segment-title" title={segment?.name ?? `Segment #${id}`}>
        {segment && (
          <span class="badge">
            <SegmentStatusText segment={segment} backfill={segment.backfill} />
          </span>
        )}
      </PageHead>
      <LoadStatus loaded={loaded} />
      {segment && (
        <>
          <Head segment={segment} />
          <Tabs tab={tab} onTab={setTab} />
          {tab === 'conditions' ? (
            <div id={panelId('conditions')} role="tabpanel" aria-labelledby={tabId('conditions')}>
              {/* A saved version starts the form again from what the API holds. */}
              <Conditions
                key={segment.version}
                api={api}
                segment={segment}
                writes={writes}
                said={said}
                onSaved={(saved, words) => {
                  setSaid(words);
                  loaded.update(() => saved);
                }}
              />
            </div>
          ) : (
            <div id={panelId('members')} role="tabpanel" aria-labelledby={tabId('members')}>
              <Members api={api} segment={segment} />
            </div>
          )}
          {writes && (
            <section class="card danger-zone page-section" aria-labelledby="sg-danger-title">
              <h2 id="sg-danger-title">Delete</h2>
              <p class="hint">Its members list goes with it; the contacts stay as they are.</p>
              <ConfirmButton
                label="Delete segment"
                confirm={`Delete “${segment.name}”?`}
                danger
                busy={remove.busy}
                onConfirm={() => remove.run()}
              />
              <ActionStatus action={remove} />
            </section>
          )}
        </>
      )}
    </section>
  );
}

/** The segment's figures: members now and when counted, its state with the backfill's progress while it builds. */
function Head({ segment }: { segment: Segment }) {
  const backfill = segment.backfill;
  return (
    <section class="card summary" aria-label="About this segment">
      {segment.description && <p>{segment.description}</p>}
      <dl class="figures">
        <dt>Members</dt>
        <dd>
          {countText(segment.count)}
          {segment.counted_at && (
            <small>
              {' '}
              counted <When at={segment.counted_at} />
            </small>
          )}
        </dd>
        <dt>Version</dt>
        <dd>{segment.version}</dd>
        <dt>Status</dt>
        <dd>
          <SegmentStatusText segment={segment} backfill={segment.backfill} />
        </dd>
      </dl>
      {segment.status === 'building' && backfill && (
        <div class="field">
          <label for="sg-backfill">Reading your contacts for version {backfill.version}</label>
          <progress
            class="progress-bar"
            id="sg-backfill"
            max={Math.max(backfill.shards, 1)}
            value={Math.min(backfill.shards_done, backfill.shards)}
          >
            {backfill.shards_done} of {backfill.shards} parts
          </progress>
          <p class="hint">
            {countText(backfill.scanned)} contacts read so far ({backfill.shards_done} of {backfill.shards} parts of the
            contact list done); members are counted as they are found.
          </p>
        </div>
      )}
    </section>
  );
}

/** The two tabs (arrow keys move between them, as in the journey's views). */
function Tabs({ tab, onTab }: { tab: Tab; onTab: (tab: Tab) => void }) {
  return (
    <div class="view-tabs" role="tablist" aria-label="Parts of the segment">
      {TABS.map((one, at) => (
        <button
          key={one.tab}
          id={tabId(one.tab)}
          type="button"
          role="tab"
          aria-selected={tab === one.tab}
          aria-controls={panelId(one.tab)}
          tabIndex={tab === one.tab ? 0 : -1}
          onClick={() => onTab(one.tab)}
          onKeyDown={(event) => {
            const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
            if (step === 0) return;
            event.preventDefault();
            const next = (TABS[(at + step + TABS.length) % TABS.length] as (typeof TABS)[number]).tab;
            onTab(next);
            document.getElementById(tabId(next))?.focus();
          }}
        >
          {one.name}
        </button>
      ))}
    </div>
  );
}

/**
 * PATCH /client/segments/{id} with the version read (a change saved meanwhile elsewhere is refused, not overwritten):
 * the name and description, and the definition when it differs (a new version, built again from every contact).
 */
function Conditions(props: {
  api: Api;
  segment: Segment;
  writes: boolean;
  said: string;
  onSaved: (saved: Segment, words: string) => void;
}) {
  const { api, segment, writes, said, onSaved } = props;
  const savedText = useMemo(() => jsonOf(segment.definition), [segment.definition]);
  const [name, setName] = useState(segment.name);
  const [description, setDescription] = useState(segment.description ?? '');
  const [text, setText] = useState(savedText);
  const save = useAction(async () => {
    const read = readJson(text);
    if (read.problems.length > 0) throw new Error('The conditions are not JSON: fix the places listed above them.');
    const changed = JSON.stringify(read.value) !== JSON.stringify(segment.definition);
    const body = {
      name: name.trim(),
      description: description.trim(),
      version: segment.version,
      ...(changed ? { definition: read.value as SegmentDefinition } : {}),
    };
    const answer = await answerOf(
      api.PATCH('/api/v1/client/segments/{id}', { params: { path: { id: String(segment.id) } }, body }),
      'Saving the segment',
    );
    onSaved(answer.data as Segment, changed ? 'Saved as a new version: its members are being found again.' : 'Saved.');
  });
  return (
    <Form class="page-section stacked-form" onSubmit={save.run} failure={save.failure} aria-label="The segment">
      <TextField
        id="sg-name"
        label="Name"
        name="name"
        value={name}
        onValue={setName}
        maxLength={SEGMENT_LIMITS.nameChars}
        required
      />
      <TextField
        id="sg-description"
        label="Description"
        name="description"
        value={description}
        onValue={setDescription}
        maxLength={SEGMENT_LIMITS.descriptionChars}
        hint="For your team: who these contacts are."
      />
      <ConditionsEditor
        id="sg-definition"
        api={api}
        text={text}
        onText={setText}
        failure={save.failure}
        readOnly={!writes}
      />
      <FailureAlert shownAt={definitionKeysOf(save.failure)} />
      {save.failure?.status === 409 && (
        <p class="hint">
          Someone saved this segment meanwhile: copy your text, reload the page, and make your change again.
        </p>
      )}
      {writes ? (
        <FormActions submit="Save segment" busy={save.busy} busyLabel="Saving…">
          {text !== savedText && !save.busy && <span class="hint">Unsaved changes.</span>}
          <Done text={save.busy || save.failure ? '' : said} />
        </FormActions>
      ) : (
        <p class="hint">Your role reads the segment; a member, an admin or the owner changes it.</p>
      )}
    </Form>
  );
}

/** GET …/contacts a page at a time, in contact-id order: "Next" follows the signed cursor, "First page" goes back. */
function Members({ api, segment }: { api: Api; segment: Segment }) {
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const page = useLoad(
    async (signal) => {
      const query = { per_page: SEGMENT_LIMITS.membersPerPage, ...(cursor ? { cursor } : {}) };
      const answer = await answerOf(
        api.GET('/api/v1/client/segments/{id}/contacts', {
          params: { path: { id: String(segment.id) }, query },
          signal,
        }),
        'Reading the members',
      );
      return { members: answer.data.contacts, next: answer.data.next_cursor };
    },
    [api, segment.id, segment.version, cursor],
    { keep: true },
  );
  const data = page.data;
  return (
    <section class="page-section" aria-labelledby="sg-members-title">
      <h2 id="sg-members-title">Members</h2>
      {segment.status === 'building' && (
        <p class="hint">The members are still being found: this list grows until the segment is ready.</p>
      )}
      <LoadStatus loaded={page} />
      {data && (
        <>
          <DataTable
            id="sg-members-table"
            label="Members table"
            caption={cursors.length === 0 ? 'Members, by contact id' : `Members, page ${cursors.length + 1}`}
            rows={data.members}
            empty={<p class="hint">No member{cursors.length > 0 ? ' on this page' : ' yet'}.</p>}
            columns={[
              {
                head: 'Contact',
                rowHeader: true,
                class: 'wrap-anywhere',
                cell: (member) => (
                  <Link page="contact" params={{ id: String(member.id) }}>
                    {member.email}
                  </Link>
                ),
              },
              {
                head: 'Name',
                cell: (member) => [member.first_name, member.last_name].filter(Boolean).join(' ') || '—',
              },
              { head: 'Member since', cell: (member) => (member.entered_at ? <When at={member.entered_at} /> : '—') },
            ]}
          />
          {(data.next || cursors.length > 0) && (
            <nav class="pager" aria-label="Pages of members">
              {cursors.length > 0 && (
                <button type="button" class="secondary" onClick={() => setCursors([])}>
                  First page
                </button>
              )}
              {data.next && (
                <button type="button" onClick={() => setCursors([...cursors, data.next as string])}>
                  Next
                </button>
              )}
            </nav>
          )}
        </>
      )}
    </section>
  );
}
