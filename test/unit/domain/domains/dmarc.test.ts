import { describe, expect, it } from 'vitest';
import { dmarcOf, dmarcViewOf } from '../../../../shared/domain/domains/dmarc.js';

describe('dmarcOf', () => {
  it.each([
    ['p=none', ['v=DMARC1; p=none; rua=mailto:d@acme.example'], 'none'],
    ['p=quarantine', ['v=DMARC1; p=quarantine'], 'quarantine'],
    ['p=reject, tag names in any case', ['V=DMARC1;P=REJECT'], 'reject'],
    ['another TXT beside it', ['google-site-verification=x', 'v=DMARC1; p=none'], 'none'],
    ['an unknown tag, ignored', ['v=DMARC1; p=none; xyz=1'], 'none'],
  ])('%s → %j', (_, txt, policy) => {
    expect(dmarcOf(txt)).toEqual({ record: (txt.find((t) => /^v=DMARC1/i.test(t)) as string).trim(), policy });
  });

  it.each([
    ['missing', [] as string[]],
    ['not a DMARC record', ['v=spf1 -all']],
    ['a version in lower case (DMARC1 is case-sensitive)', ['v=dmarc1; p=none']],
    ['two records (both discarded)', ['v=DMARC1; p=none', 'v=DMARC1; p=reject']],
  ])('%s → no record', (_, txt) => {
    expect(dmarcOf(txt)).toEqual({ record: null, policy: null });
  });

  it.each([
    ['no p', 'v=DMARC1; rua=mailto:d@acme.example'],
    ['a p that is no policy', 'v=DMARC1; p=monitor'],
    ['v alone', 'v=DMARC1'],
  ])('%s → the record without a usable policy', (_, record) => {
    expect(dmarcOf([record])).toEqual({ record, policy: null });
  });

  it('meets the bulk sender rules with any policy, p=none included, and not without one', () => {
    expect(dmarcViewOf({ dmarc: { record: 'v=DMARC1; p=none', policy: 'none', checked_at: 'x' } })).toMatchObject({
      meets_bulk_sender_rules: true,
    });
    expect(dmarcViewOf({ dmarc: { record: 'v=DMARC1', policy: null, checked_at: 'x' } })).toMatchObject({
      meets_bulk_sender_rules: false,
      policy: null,
    });
  });
});
