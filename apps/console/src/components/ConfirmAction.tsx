import { type ReactNode, useId, useRef, useState } from 'react';
import { useT } from '../i18n/use-t.js';
import { type RefusalView, refusalOf } from '../refusal.js';
import { Refusal } from './Refusal.js';

export interface ConfirmActionProps {
  /** The button that opens the dialog. */
  label: string;
  /** The dialog's title: the action. */
  title: string;
  /** What will happen, naming the track and the release it affects, and about how many devices. */
  children: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  /** Runs on confirmation; a refusal is shown in the dialog in the server's words. */
  action: () => Promise<unknown>;
  onDone?: (message: string) => void;
  disabled?: boolean;
  /** The confirm button stays off while what the dialog asks for is not valid (a field in it). */
  confirmDisabled?: boolean;
  /**
   * A statement the operator must tick before the confirm button works (the failures they are
   * widening a rollout past): a risky action is never one Enter away.
   */
  acknowledge?: string;
}

/**
 * A button that asks first. The native <dialog> (showModal) traps focus, closes on Escape and
 * gives focus back to the button, so it works from the keyboard alone.
 */
export function ConfirmAction(props: ConfirmActionProps) {
  const { t } = useT();
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const acknowledgeId = useId();
  const [busy, setBusy] = useState(false);
  const [acknowledged, setAcknowledged] = useState(false);
  const [error, setError] = useState<RefusalView>();
  const open = () => {
    setError(undefined);
    setAcknowledged(false);
    dialog.current?.showModal();
  };
  const confirm = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await props.action();
      dialog.current?.close();
      props.onDone?.(t('common.done', { action: props.title }));
    } catch (reason) {
      setError(refusalOf(t, reason));
    } finally {
      setBusy(false);
    }
  };
  const blocked = (props.acknowledge !== undefined && !acknowledged) || props.confirmDisabled === true;
  return (
    <>
      <button type="button" className={props.danger ? 'danger' : undefined} onClick={open} disabled={props.disabled}>
        {props.label}
      </button>
      <dialog ref={dialog} aria-labelledby={titleId} className="confirm">
        <h2 id={titleId}>{props.title}</h2>
        <div className="confirm-body">{props.children}</div>
        {props.acknowledge !== undefined && (
          <p className="acknowledge">
            <input
              id={acknowledgeId}
              type="checkbox"
              checked={acknowledged}
              onChange={(event) => setAcknowledged(event.target.checked)}
            />
            <label htmlFor={acknowledgeId}>{props.acknowledge}</label>
          </p>
        )}
        {error && <Refusal refusal={error} />}
        <div className="confirm-buttons">
          <button type="button" onClick={() => dialog.current?.close()} disabled={busy}>
            {t('common.cancel')}
          </button>
          <button
            type="button"
            className={props.danger ? 'danger' : 'primary'}
            onClick={confirm}
            disabled={busy || blocked}
          >
            {busy ? t('common.working') : props.confirmLabel}
          </button>
        </div>
      </dialog>
    </>
  );
}
