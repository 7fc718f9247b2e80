import { CofferError } from './errors.js';

/**
 * How big a tool result may be, in tokens (characters / 4), before Coffer cuts it and
 * keeps the whole to read in pages (issue 20.4). Clients refuse results above about
 * 25,000 tokens (Claude Code's default limit), hence the default.
 */
export const DEFAULT_RESULT_BUDGET_TOKENS = 25_000;

/** Below this the note about the cut would crowd out the result itself. */
export const MIN_RESULT_BUDGET_TOKENS = 1_000;

/** The word that turns the limit off. */
export const RESULT_BUDGET_OFF = 'off';

/** A budget in tokens, or undefined for "off". `where` names the source in the message. */
export function parseResultBudget(value: string, where: string): number | undefined {
  if (value === RESULT_BUDGET_OFF) return undefined;
  const tokens = Number(value);
  if (!/^[0-9]+$/.test(value) || tokens < MIN_RESULT_BUDGET_TOKENS)
    throw new CofferError(
      'INVALID_INPUT',
      `${where} must be a whole number of tokens, at least ${MIN_RESULT_BUDGET_TOKENS}, or "${RESULT_BUDGET_OFF}", not "${value}"`,
    );
  return tokens;
}
