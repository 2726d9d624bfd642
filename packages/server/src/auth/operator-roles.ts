import { OPERATOR_ROLES, type OperatorRole } from '@ferry/contracts';

// The access rule lives in @ferry/contracts (ota/operator-actions.ts): the console hides what the
// same rule refuses. The server's modules keep importing it from here.
export { mayPerform, OPERATOR_ACTIONS, type OperatorAction, type Principal } from '@ferry/contracts';

export const isOperatorRole = (value: unknown): value is OperatorRole =>
  typeof value === 'string' && (OPERATOR_ROLES as readonly string[]).includes(value);
