import {
  type FunnelDependencies,
  type FunnelEntry,
  type FunnelEvent,
  type FunnelState,
  funnelReducer,
  initialFunnelState,
  performPendingWork,
} from '@ferry/certificate-flow';
import { useEffect, useReducer, useRef } from 'react';

/**
 * The shared reducer plus the effect that performs its pending work. Each piece of work runs once
 * per id, even if React runs effects twice, so no call is ever sent twice.
 */
export function useFunnel(entry: FunnelEntry, deps: FunnelDependencies): [FunnelState, (event: FunnelEvent) => void] {
  const [state, dispatch] = useReducer(funnelReducer, entry, initialFunnelState);
  const lastStarted = useRef(0);

  useEffect(() => {
    const pending = state.pending;
    if (!pending || pending.id === lastStarted.current) return;
    lastStarted.current = pending.id;
    void performPendingWork(state, deps).then((event) => {
      if (event) dispatch(event);
    });
  }, [state, deps]);

  return [state, dispatch];
}
