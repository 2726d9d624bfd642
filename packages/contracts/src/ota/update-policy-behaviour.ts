import type { UpdatePolicyName } from './update-policy.js';

/**
 * What an app does with a downloaded update under each policy (the specification's update policy
 * table, as the app SDK implements it), in words, by the policy's name. The release console's
 * English labels are these words and its Korean ones translate them key by key, so no client keeps
 * a table of its own from values to meanings. Not in update-policy.ts: the app SDK bundles that.
 */
export const UPDATE_POLICY_BEHAVIOUR: Readonly<Record<UpdatePolicyName, string>> = {
  Immediate: 'applied as soon as it is downloaded: the app reloads',
  Notify: 'once downloaded, a banner offers to apply it now',
  Default: 'applied silently at the next cold launch',
};
