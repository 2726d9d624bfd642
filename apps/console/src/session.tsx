import type { ConsoleSession, OperatorAction } from '@ferry/contracts';
import { createContext, type ReactNode, useContext } from 'react';

const SessionContext = createContext<ConsoleSession | null>(null);

export const SessionProvider = ({ session, children }: { session: ConsoleSession; children: ReactNode }) => (
  <SessionContext.Provider value={session}>{children}</SessionContext.Provider>
);

export const useSession = (): ConsoleSession | null => useContext(SessionContext);

/**
 * Whether the signed-in operator may perform an action: the session's `allowedActions`, which the
 * server reads off its own rule (`mayPerform`), so the console keeps no second copy of it and shows
 * only the controls it allows. The server still decides every request.
 */
export function useMay(): (action: OperatorAction) => boolean {
  const session = useSession();
  return (action) => session?.allowedActions.includes(action) ?? false;
}
