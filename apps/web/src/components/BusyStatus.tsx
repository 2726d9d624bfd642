import type { PendingWork } from '@ferry/certificate-flow';
import { useCertificateTranslation } from '@ferry/certificate-flow/react-i18next';

/** A polite live region: screen readers hear that something is happening without losing focus. */
export function BusyStatus({ pending }: { pending: PendingWork | null }) {
  const { t } = useCertificateTranslation();
  return (
    <p className="busy" role="status" aria-live="polite">
      {pending ? t(`busy.${pending.kind}`) : ''}
    </p>
  );
}
