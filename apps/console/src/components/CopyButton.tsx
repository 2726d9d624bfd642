import { useState } from 'react';
import { useT } from '../i18n/use-t.js';

/** Copies a value (a fingerprint, an id, a new token) and says so, for screen readers too. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const { t } = useT();
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="small"
      aria-label={t('common.copyLabel', { what: label })}
      onClick={async () => {
        await navigator.clipboard.writeText(value).catch(() => undefined);
        setCopied(true);
      }}
    >
      {copied ? t('common.copied') : t('common.copy')}
      <span className="visually-hidden" aria-live="polite">
        {copied ? t('common.copiedLabel', { what: label }) : ''}
      </span>
    </button>
  );
}
