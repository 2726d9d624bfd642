import { useT } from '../i18n/use-t.js';
import type { RefusalView } from '../refusal.js';

/** A refusal in an alert: which platform refused (a group action), the server's words, then its code. */
export function Refusal({ refusal }: { refusal: RefusalView }) {
  const { t } = useT();
  return (
    <div role="alert" className="error">
      {refusal.platform && (
        <p>
          <strong>{t('group.refusedBy', { platform: t(`platforms.${refusal.platform}`) })}</strong>
        </p>
      )}
      <p>
        {refusal.message}
        {refusal.code && <span className="error-code"> ({refusal.code})</span>}
      </p>
    </div>
  );
}
