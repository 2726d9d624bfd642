import { type ConsoleSession, mayPerform, type OperatorAction } from '@ferry/contracts';
import { createContext, type ReactNode, useContext } from 'react';

const SessionContext = createContext<ConsoleSession | null>(null);

export const SessionProvider = ({ session, children }: { session: ConsoleSession; children: ReactNode }) => (
  <SessionContext.Provider value={session}>{children}</SessionContext.Provider>
);

export const useSession = (): ConsoleSession | null => useContext(SessionContext);

/**
 * Whether the signed-in operator may perform an action, by the server's own rule (`mayPerform`):
 * the console shows only the controls it allows. The server still decides every request.
 */
export function useMay(): (action: OperatorAction) => boolean {
  const session = useSession();
  return (action) => session !== null && mayPerform(session.role, action);
}
