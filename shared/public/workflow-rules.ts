/** How many exit event types a workflow's customization may list. */
export const MAX_EXIT_EVENTS = 10;
