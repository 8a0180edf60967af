/** A time of the API (RFC 3339, UTC) as people read it: `2026-11-26 09:30:05 UTC`, machine-readable in `dateTime`. */
export const formatTime = (iso: string): string =>
  /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/.test(iso) ? `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC` : iso;

export function When({ at }: { at: string | null | undefined }) {
  if (!at) return <>—</>;
  return <time dateTime={at}>{formatTime(at)}</time>;
}
