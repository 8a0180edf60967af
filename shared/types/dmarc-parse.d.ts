/** dmarc-parse ships no types: what its one function returns (each valid tag by name; messages for the rest). */
declare module 'dmarc-parse' {
  interface DmarcTag {
    value: string;
    description: string;
  }
  interface ParsedDmarc {
    tags: Record<string, DmarcTag | undefined>;
    /** Why a tag was refused (a bad value, an unknown tag, `v` not first); absent when there is none. */
    messages?: string[];
  }
  function parse(policy: string): ParsedDmarc;
  export default parse;
}
