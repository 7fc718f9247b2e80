import type { SkillListing } from '../../skill-listing.js';
import type { RequestHandler } from '../method-table.js';
import { routedOptions } from './routed-options.js';

/** `skills/list` (the Skills extension): every server's skills, on one page. */
export function skillsListHandler(skills: SkillListing): RequestHandler {
  return (params, context) => skills.list(params, routedOptions(context));
}
