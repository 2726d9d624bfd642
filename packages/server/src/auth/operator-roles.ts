import { OPERATOR_ROLES, type OperatorRole } from '@ferry/contracts';

// The access rule lives in @ferry/contracts (ota/operator-roles.ts), so the console reads the same
// one the server enforces; the server names it from here.
export {
  allowedActions,
  mayPerform,
  OPERATOR_ACTIONS,
  type OperatorAction,
  type Principal,
  refusalMessage,
  whoMayPerform,
} from '@ferry/contracts';

export const isOperatorRole = (value: unknown): value is OperatorRole =>
  typeof value === 'string' && (OPERATOR_ROLES as readonly string[]).includes(value);
