import type { ComponentChildren } from 'preact';

/** A column: its heading and what a row shows in it; `rowHeader` makes the cell the row's `<th scope="row">`. */
export interface Column<R> {
  head: ComponentChildren;
  cell: (row: R) => ComponentChildren;
  rowHeader?: boolean;
  class?: string;
}

/**
 * A table of records in a region that scrolls sideways on a narrow screen (focusable, so a keyboard can scroll it;
 * named by `label`). Headings are `<th scope="col">`; a row header column names each row.
 */
export function DataTable<R>(props: {
  id?: string;
  label: string;
  caption?: ComponentChildren;
  columns: readonly Column<R>[];
  rows: readonly R[];
  rowKey: (row: R) => string | number;
}) {
  const { id, label, caption, columns, rows, rowKey } = props;
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
