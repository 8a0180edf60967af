/**
 * How `npm run bench` puts its parts into docs/benchmarks.md: each part replaces its own sections and leaves every
 * other one as it is, so a run never drops what another bench wrote (cold starts, faults, crash runs, rate limits…).
 */

/**
 * `head` (the import part: the title and the `## ` sections it writes) in place of the document's head, up to the first
 * section it does not write; the rest stays. A results section of another modelled latency counts as the import's.
 */
export function withImportPart(doc: string, head: string): string {
  const own = new Set([...head.matchAll(/^## (.*)$/gm)].map((m) => m[1]!.trim()));
  const isOwn = (title: string) => own.has(title) || title.startsWith('Results: ');
  const firstOther = [...doc.matchAll(/^## (.*)$/gm)].find((m) => !isOwn(m[1]!.trim()));
  const rest = firstOther ? doc.slice(firstOther.index) : '';
  return `${head.trimEnd()}\n${rest ? `\n${rest}` : ''}`;
}

/** The engine's section in place (from its `## Engine: ` heading to the next `## `), else appended. */
export function withEngineSection(doc: string, section: string): string {
  const start = doc.indexOf('## Engine: ');
  const end = start < 0 ? -1 : doc.indexOf('\n## ', start + 1);
  const text = `${section.trimEnd()}\n`;
  return start < 0 ? `${doc.trimEnd()}\n\n${text}` : `${doc.slice(0, start)}${text}${end < 0 ? '' : doc.slice(end)}`;
}

/** A part's section between its markers (the section includes them), else appended under its title. */
export function withMarkedSection(doc: string, start: string, end: string, title: string, section: string): string {
  return doc.includes(start)
    ? doc.slice(0, doc.indexOf(start)) + section + doc.slice(doc.indexOf(end) + end.length)
    : `${doc.trimEnd()}\n\n${title}\n\n${section}\n`;
}
