import type { ComponentChildren } from 'preact';

/** A card of a form's fields about one thing, named by its legend and laid out in a grid (`.field-group`). */
export function FieldGroup({ legend, children }: { legend: ComponentChildren; children: ComponentChildren }) {
  return (
    <fieldset class="card field-group">
      <legend>{legend}</legend>
      {children}
    </fieldset>
  );
}
