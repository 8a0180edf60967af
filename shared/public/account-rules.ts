/** The most characters of an API key's label. */
export const API_KEY_LABEL_MAX = 100;

/** The most characters of a dashboard user's name. */
export const USER_NAME_MAX = 200;
