/**
 * Bounds of a tool search, the same for coffer__search_tools, the REST API and the CLI.
 * Eight hits fit a model's context easily and usually hold the right tool (recall@5 is
 * measured by `npm run eval:search`); fifty is plenty for a person browsing.
 */
export const DEFAULT_SEARCH_LIMIT = 8;
export const MAX_SEARCH_LIMIT = 50;
/** Longer than any sensible description of a task; bounds the work of one search. */
export const MAX_QUERY_LENGTH = 500;
