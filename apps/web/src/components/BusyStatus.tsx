import type { PendingWork } from '@ferry/certificate-flow';

const MESSAGES: Record<PendingWork['kind'], string> = {
  encrypt: 'Protecting your resident registration number…',
  start: 'Sending the authentication request to your provider…',
  complete: 'Checking your approval and issuing the certificate…',
};

/** A polite live region: screen readers hear that something is happening without losing focus. */
export function BusyStatus({ pending }: { pending: PendingWork | null }) {
  return (
    <p className="busy" role="status" aria-live="polite">
      {pending ? MESSAGES[pending.kind] : ''}
    </p>
  );
}
