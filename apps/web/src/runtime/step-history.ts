import { FUNNEL_STEPS, type FunnelStep } from '@ferry/certificate-flow';
import { useEffect, useRef, useState } from 'react';

/** The funnel's mark on a history entry: how deep in the funnel that entry is (intro 0 … done 3). */
interface StepEntry {
  ferryFunnelDepth: number;
}

const depthOfStep = (step: FunnelStep): number => FUNNEL_STEPS.indexOf(step);

const depthOfEntry = (state: unknown): number | null => {
  const depth = (state as Partial<StepEntry> | null)?.ferryFunnelDepth;
  return typeof depth === 'number' ? depth : null;
};

const entry = (depth: number): StepEntry & Record<string, unknown> => ({
  ...(window.history.state as Record<string, unknown> | null),
  ferryFunnelDepth: depth,
});

/**
 * The browser's (and Android's) Back button moves the funnel one step back instead of leaving it.
 * Each step the funnel moves forward to gets a history entry of its own (pushState); going back in
 * the page (or after a failure) moves back in history too (history.go), so the entries always
 * match the step on screen. A Back the funnel refuses (work in flight) puts the entry back; Forward
 * cannot skip ahead of the funnel. Entries survive a reload, as does the step (funnel-session.ts).
 */
export function useStepHistory(step: FunnelStep, goBack: () => void): void {
  const goBackRef = useRef(goBack);
  goBackRef.current = goBack;
  const stepRef = useRef(step);
  stepRef.current = step;
  /** Set while a history.go of ours is under way: its popstate is not the person's. */
  const moving = useRef(false);
  /** Counts the person's history moves, so an entry the funnel refused is restored even if the step stays. */
  const [moves, setMoves] = useState(0);

  // The history follows the funnel.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `moves` re-checks after a Back the funnel refused.
  useEffect(() => {
    const target = depthOfStep(step);
    const current = depthOfEntry(window.history.state);
    if (current === null) {
      window.history.replaceState(entry(target), '');
    } else if (target > current) {
      for (let depth = current + 1; depth <= target; depth++) window.history.pushState(entry(depth), '');
    } else if (target < current) {
      moving.current = true;
      window.history.go(target - current);
    }
  }, [step, moves]);

  // The person's Back (or Forward) moves the funnel.
  useEffect(() => {
    const onPopState = (event: PopStateEvent) => {
      if (moving.current) {
        moving.current = false;
        return;
      }
      const depth = depthOfEntry(event.state);
      if (depth === null) return;
      if (depth < depthOfStep(stepRef.current)) goBackRef.current();
      setMoves((count) => count + 1);
    };
    window.addEventListener('popstate', onPopState);
    return () => window.removeEventListener('popstate', onPopState);
  }, []);
}
