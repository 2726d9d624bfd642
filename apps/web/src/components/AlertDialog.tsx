import type { FunnelAlert } from '@ferry/certificate-flow';
import { useCertificateTranslation } from '@ferry/certificate-flow/react-i18next';
import { useEffect, useId, useRef } from 'react';

interface AlertDialogProps {
  alert: FunnelAlert | null;
  onDismiss: () => void;
}

/**
 * How failures of the calls are shown (a wrong detail on intro is shown inline instead): a modal alert dialog (native <dialog>, so focus is trapped and
 * Escape closes it). Closing returns focus to where it was, or to the step heading if that element
 * is gone (the step changed).
 */
export function AlertDialog({ alert, onDismiss }: AlertDialogProps) {
  const { t } = useCertificateTranslation();
  const dialog = useRef<HTMLDialogElement>(null);
  const returnFocusTo = useRef<Element | null>(null);
  const titleId = useId();
  const messageId = useId();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (alert && !element.open) {
      returnFocusTo.current = document.activeElement;
      element.showModal();
    } else if (!alert && element.open) {
      element.close();
    }
  }, [alert]);

  const restoreFocus = () => {
    const target = returnFocusTo.current;
    const fallback = document.querySelector<HTMLElement>('[data-step-heading]');
    if (target instanceof HTMLElement && target.isConnected && target !== document.body) target.focus();
    else fallback?.focus();
  };

  return (
    <dialog
      ref={dialog}
      role="alertdialog"
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={messageId}
      className="alert-dialog"
      onClose={() => {
        onDismiss();
        restoreFocus();
      }}
    >
      <h2 id={titleId}>{alert ? t(alert.title, alert.values) : ''}</h2>
      <p id={messageId}>{alert ? t(alert.message, alert.values) : ''}</p>
      <form method="dialog">
        {/* biome-ignore lint/a11y/noAutofocus: an alert dialog must put focus on its action. */}
        <button type="submit" autoFocus>
          {t('dialog.ok')}
        </button>
      </form>
    </dialog>
  );
}
