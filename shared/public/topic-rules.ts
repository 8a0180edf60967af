/** The most characters of a topic's name (trimmed; unique among the client's topics, case-insensitive). */
export const TOPIC_NAME_MAX = 100;

/** The most characters of a topic's description, shown under its name on the preference page. */
export const TOPIC_DESCRIPTION_MAX = 500;
