/** A page's first load: a spinner and what is being read, announced politely to screen readers. */
export const Loading = ({ label }: { label: string }) => (
  <p className="loading" role="status" aria-live="polite">
    <span className="spinner" aria-hidden="true" />
    {label}
  </p>
);
