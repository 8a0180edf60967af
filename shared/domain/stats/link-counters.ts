/** A broadcast link row's counters: clicks by people, and by machines (scanners, proxies), as bot detection judged. */
export const LINK_HUMAN = 'h';
export const LINK_MACHINE = 'm';
