import { type ReactNode, useEffect, useRef } from 'react';

/**
 * The heading of a step (h2, under the service heading). It takes focus when the step appears, so
 * keyboard and screen-reader users land at the start of the new step instead of on a button that no
 * longer exists.
 */
export function StepHeading({ id, children }: { id: string; children: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <h2 id={id} ref={heading} tabIndex={-1} data-step-heading className="step-heading">
      {children}
    </h2>
  );
}
