import { useEffect, useReducer, useRef } from 'react';
import type { FunnelEvent } from '../funnel/funnel-events.js';
import { funnelReducer } from '../funnel/funnel-reducer.js';
import { type FunnelEntry, type FunnelState, initialFunnelState } from '../funnel/funnel-state.js';
import { type FunnelDependencies, performPendingWork } from '../funnel/pending-work.js';

/**
 * The funnel reducer plus the effect that performs its pending work, shared by the web page and the
 * native hooks so both run the flow the same way. Each piece of work runs once per id, even when
 * React runs effects twice, so no vendor call is ever sent twice.
 */
export function useFunnelMachine(
  entry: FunnelEntry,
  deps: FunnelDependencies,
  /** Where to start instead of the entry's first step (a resumed funnel: resumedState). */
  initialState?: FunnelState | null,
): [FunnelState, (event: FunnelEvent) => void] {
  const [state, dispatch] = useReducer(funnelReducer, entry, (first) => initialState ?? initialFunnelState(first));
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
