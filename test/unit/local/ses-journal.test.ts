import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SesJournal } from '../../../local/engine/ses-journal.js';

const dirs: string[] = [];
const journal = () => {
  const dir = mkdtempSync(join(tmpdir(), 'ses-journal-'));
  dirs.push(dir);
  return new SesJournal(dir);
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('SesJournal (the local SES, durable across a kill)', () => {
  it('keeps every notification in the order published, with its delay and time', () => {
    // Prepare
    const j = journal();

    // Act
    j.append({ Type: 'Notification', Message: 'send' }, 0, 1_000);
    j.append({ Type: 'Notification', Message: 'delivery' }, 1, 2_000);

    // Assess
    expect(j.entries()).toEqual([
      { at: 1_000, delaySeconds: 0, message: { Type: 'Notification', Message: 'send' } },
      { at: 2_000, delaySeconds: 1, message: { Type: 'Notification', Message: 'delivery' } },
    ]);
  });

  it('skips a last line cut short by a kill mid-write, and has no entries before the first', () => {
    // Prepare
    const j = journal();
    expect(j.entries()).toEqual([]);
    j.append({ Message: 'whole' }, 0, 1_000);
    appendFileSync(j.file, '{"at":2000,"delaySeconds":0,"mess');

    // Act
    const entries = j.entries();

    // Assess
    expect(entries.map((e) => e.message['Message'])).toEqual(['whole']);
  });

  it('compacts to the entries at or after a time, rewriting the file', () => {
    // Prepare
    const j = journal();
    for (const at of [1_000, 2_000, 3_000]) j.append({ Message: String(at) }, 0, at);

    // Act
    const kept = j.compact(2_000);

    // Assess
    expect(kept.map((e) => e.at)).toEqual([2_000, 3_000]);
    expect(readFileSync(j.file, 'utf8').trim().split('\n')).toHaveLength(2);
    expect(j.entries().map((e) => e.at)).toEqual([2_000, 3_000]);
  });
});
