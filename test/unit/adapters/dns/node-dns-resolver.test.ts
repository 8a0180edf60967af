import { describe, expect, it, vi } from 'vitest';
import { NodeDnsResolver, type DnsLookups } from '../../../../shared/adapters/dns/node-dns-resolver.js';

/** The options node's Resolver was built with (the module is replaced: no test here reaches a network). */
const resolverOptions: unknown[] = [];
vi.mock('node:dns/promises', () => ({
  Resolver: class {
    constructor(options: unknown) {
      resolverOptions.push(options);
    }
  },
}));

const dnsError = (code: string): NodeJS.ErrnoException => Object.assign(new Error(`query ${code}`), { code });

/** A resolver that answers from a table, or fails with `failWith`, and records the names asked. */
function fakeResolver(
  answers: { txt?: string[][]; cname?: string[]; mx?: { exchange: string; priority: number }[] },
  failWith?: string,
) {
  const asked: string[] = [];
  const answer = async <T>(name: string, value: T | undefined): Promise<T> => {
    asked.push(name);
    if (failWith) throw dnsError(failWith);
    if (value === undefined) throw dnsError('ENODATA');
    return value;
  };
  const lookups = {
    resolveTxt: (name: string) => answer(name, answers.txt),
    resolveCname: (name: string) => answer(name, answers.cname),
    resolveMx: (name: string) => answer(name, answers.mx),
  } as unknown as DnsLookups;
  return { lookups, asked };
}

describe('NodeDnsResolver', () => {
  it("joins each TXT record's character-strings into one value, one value per record", async () => {
    // Prepare: a long DKIM-like value split in 255-byte strings, and a short one
    const { lookups, asked } = fakeResolver({ txt: [['v=DMARC1; p=none'], ['a'.repeat(255), 'b'.repeat(100)]] });

    // Act
    const values = await new NodeDnsResolver(lookups).txt('_DMARC.Acme.Example.');

    // Assess
    expect(values).toEqual(['v=DMARC1; p=none', `${'a'.repeat(255)}${'b'.repeat(100)}`]);
    expect(asked).toEqual(['_dmarc.acme.example']);
  });

  it('answers CNAME targets and MX exchanges as names, lower-case without the trailing dot', async () => {
    // Prepare
    const { lookups } = fakeResolver({
      cname: ['Tok.DKIM.amazonses.com.'],
      mx: [{ exchange: 'Feedback-SMTP.us-east-1.amazonses.com.', priority: 10 }],
    });
    const resolver = new NodeDnsResolver(lookups);

    // Act
    const [cname, mx] = await Promise.all([
      resolver.cname('tok._domainkey.acme.example'),
      resolver.mx('bounce.acme.example'),
    ]);

    // Assess
    expect(cname).toEqual(['tok.dkim.amazonses.com']);
    expect(mx).toEqual([{ exchange: 'feedback-smtp.us-east-1.amazonses.com', priority: 10 }]);
  });

  it.each(['ENODATA', 'ENOTFOUND'])(
    'answers no records when the resolver says %s (the name has none)',
    async (code) => {
      // Prepare
      const resolver = new NodeDnsResolver(fakeResolver({}, code).lookups);

      // Act
      const answers = await Promise.all([
        resolver.txt('a.example'),
        resolver.cname('a.example'),
        resolver.mx('a.example'),
      ]);

      // Assess
      expect(answers).toEqual([[], [], []]);
    },
  );

  it.each(['ESERVFAIL', 'ETIMEOUT', 'ECONNREFUSED', 'EREFUSED'])(
    'throws when the resolver says %s, so an outage never reads as an absent record',
    async (code) => {
      // Prepare
      const resolver = new NodeDnsResolver(fakeResolver({ txt: [['x']], cname: ['x'], mx: [] }, code).lookups);

      // Act & Assess
      await expect(resolver.txt('a.example')).rejects.toMatchObject({ code });
      await expect(resolver.cname('a.example')).rejects.toMatchObject({ code });
      await expect(resolver.mx('a.example')).rejects.toMatchObject({ code });
    },
  );

  it("builds node's resolver with a 2 s timeout and two tries when given none", async () => {
    // Prepare: unit files share their worker's modules, so the adapter may have been loaded before this file's mock
    // of node:dns existed; load it afresh so it builds the mocked Resolver.
    vi.resetModules();
    const fresh = await import('../../../../shared/adapters/dns/node-dns-resolver.js');

    // Act
    new fresh.NodeDnsResolver();

    // Assess
    expect(resolverOptions).toEqual([{ timeout: 2000, tries: 2 }]);
  });
});
