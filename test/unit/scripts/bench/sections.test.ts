import { describe, expect, it } from 'vitest';
import { withEngineSection, withImportPart, withMarkedSection } from '../../../../scripts/bench/sections.js';

const DOC = `# Benchmarks

old intro

## What is measured

old import text

## Results: with a modelled round trip of 4 ms a DynamoDB request

old 4 ms table

## Reading the figures

old reading

## Engine: 1,000 events to 1,000 e-mails

old engine figures

## Cold starts

<!-- cold-start:begin -->
cold figures
<!-- cold-start:end -->

## Engine under faults

<!-- faults:begin -->
fault figures
<!-- faults:end -->

## Crash run

crash figures

## Day counters

<!-- counters:begin -->
old counters
<!-- counters:end -->

## Journeys: requests per transition and per awaited event

<!-- journeys:begin -->
journey figures
<!-- journeys:end -->
`;

const HEAD = `# Benchmarks

new intro

## What is measured

new import text

## Results: with a modelled round trip of 8 ms a DynamoDB request

new 8 ms table

## Reading the figures

new reading
`;

describe("npm run bench's sections of docs/benchmarks.md", () => {
  it('a full run replaces the parts it measured and keeps every section it does not write', () => {
    // Act: as a full run writes them, in order.
    let doc = withImportPart(DOC, HEAD);
    doc = withEngineSection(doc, '## Engine: 1,000 events to 1,000 e-mails\n\nnew engine figures\n');
    doc = withMarkedSection(
      doc,
      '<!-- counters:begin -->',
      '<!-- counters:end -->',
      '## Day counters',
      '<!-- counters:begin -->\nnew counters\n<!-- counters:end -->',
    );

    // Assess
    for (const kept of ['cold figures', 'fault figures', 'crash figures', 'journey figures'])
      expect(doc).toContain(kept);
    for (const gone of ['old intro', 'old import text', 'old 4 ms table', 'old reading', 'old engine', 'old counters'])
      expect(doc).not.toContain(gone);
    expect([...doc.matchAll(/^## (.*)$/gm)].map((m) => m[1])).toEqual([
      'What is measured',
      'Results: with a modelled round trip of 8 ms a DynamoDB request',
      'Reading the figures',
      'Engine: 1,000 events to 1,000 e-mails',
      'Cold starts',
      'Engine under faults',
      'Crash run',
      'Day counters',
      'Journeys: requests per transition and per awaited event',
    ]);
    expect(doc).toContain('new engine figures\n\n## Cold starts');
  });

  it('appends a section the document does not have yet', () => {
    const doc = withEngineSection('# Benchmarks\n\nintro\n', '## Engine: 10 events to 10 e-mails\n\nfigures');
    expect(doc).toBe('# Benchmarks\n\nintro\n\n## Engine: 10 events to 10 e-mails\n\nfigures\n');
    expect(
      withMarkedSection('# B\n', '<!-- x:begin -->', '<!-- x:end -->', '## X', '<!-- x:begin -->\nx\n<!-- x:end -->'),
    ).toBe('# B\n\n## X\n\n<!-- x:begin -->\nx\n<!-- x:end -->\n');
  });
});
