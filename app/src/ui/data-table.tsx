import type { ComponentChildren } from 'preact';

/** A column: its heading and what a row shows in it; `rowHeader` makes the cell the row's `<th scope="row">`. */
export interface Column<R> {
  head: ComponentChildren;
  cell: (row: R) => ComponentChildren;
  rowHeader?: boolean;
  class?: string;
}

type RowKey<R> = (row: R) => string | number;

/**
 * A table of records in a region that scrolls sideways on a narrow screen (focusable, so a keyboard can scroll it;
 * named by `label`). Headings are `<th scope="col">`; a row header column names each row. A row is keyed by its `id`
 * unless `rowKey` says otherwise (a record without one must say); `empty` shows instead of the table when there is no
 * row (what "none yet" means there, or the first step).
 */
export function DataTable<R>(
  props: {
    id?: string;
    label: string;
    caption?: ComponentChildren;
    columns: readonly Column<R>[];
    rows: readonly R[];
    empty?: ComponentChildren;
  } & (R extends { id: string | number } ? { rowKey?: RowKey<R> } : { rowKey: RowKey<R> }),
) {
  const { id, label, caption, columns, rows, empty } = props;
  const rowKey: RowKey<R> = props.rowKey ?? ((row) => (row as { id: string | number }).id);
  if (rows.length === 0 && empty !== undefined) return <>{empty}</>;
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex lint/a11y/useSemanticElements: a region that scrolls must take focus for a keyboard to scroll it (axe scrollable-region-focusable); a <section> would add a landmark heading level.
    <div class="table-region" tabIndex={0} role="region" aria-label={label}>
      <table id={id} class="data-table">
        {caption !== undefined && <caption>{caption}</caption>}
        <thead>
          <tr>
            {columns.map((column, at) => (
              <th key={at} scope="col">
                {column.head}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((column, at) =>
                column.rowHeader ? (
                  <th key={at} scope="row" class={column.class}>
                    {column.cell(row)}
                  </th>
                ) : (
                  <td key={at} class={column.class}>
                    {column.cell(row)}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
