import type { ComponentChildren } from 'preact';

/** A page's heading (its `<h1>`, `id` for the section's aria-labelledby) and the actions beside it. */
export function PageHead({
  id,
  title,
  children,
}: {
  id: string;
  title: ComponentChildren;
  children?: ComponentChildren;
}) {
  return (
    <div class="page-head">
      <h1 id={id}>{title}</h1>
      {children}
    </div>
  );
}
