import type { ComponentChildren } from 'preact';
import type { DashboardPage } from '../../../shared/http/dashboard-pages.js';
import { hrefOf, navigate, type PageParams } from '../router.js';

/**
 * A link to a page of the app: a real `href` (open in a new tab, copy, keyboard), and a plain click moves without a
 * reload. A click with a modifier key, or any but the main button, is left to the browser.
 */
export function Link(props: {
  page: DashboardPage;
  params?: PageParams;
  children: ComponentChildren;
  class?: string;
  current?: boolean;
}) {
  const { page, params, children, current } = props;
  return (
    <a
      href={hrefOf(page, params)}
      class={props.class}
      aria-current={current ? 'page' : undefined}
      onClick={(event) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        navigate(page, params);
      }}
    >
      {children}
    </a>
  );
}
