import { type ReactNode, useId, useRef, useState } from 'react';
import { ApiError } from '../api.js';

export interface ConfirmActionProps {
  /** The button that opens the dialog. */
  label: string;
  /** The dialog's title: the action. */
  title: string;
  /** What will happen, naming the track and the release it affects. */
  children: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  /** Runs on confirmation; a thrown ApiError is shown in the dialog. */
  action: () => Promise<unknown>;
  onDone?: (message: string) => void;
  /** Optional fields inside the dialog (the new share); their value is read by `action`. */
  disabled?: boolean;
}

/**
 * A button that asks first. The native <dialog> (showModal) traps focus, closes on Escape and
 * gives focus back to the button, so it works from the keyboard alone.
 */
export function ConfirmAction(props: ConfirmActionProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const open = () => {
    setError(undefined);
    dialog.current?.showModal();
  };
  const confirm = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await props.action();
      dialog.current?.close();
      props.onDone?.(`${props.title}: done.`);
    } catch (reason) {
      setError(reason instanceof ApiError ? `${reason.message} (${reason.code})` : String(reason));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" className={props.danger ? 'danger' : undefined} onClick={open} disabled={props.disabled}>
        {props.label}
      </button>
      <dialog ref={dialog} aria-labelledby={titleId} className="confirm">
        <h2 id={titleId}>{props.title}</h2>
        <div className="confirm-body">{props.children}</div>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <div className="confirm-buttons">
          <button type="button" onClick={() => dialog.current?.close()} disabled={busy}>
            Cancel
          </button>
          <button type="button" className={props.danger ? 'danger' : 'primary'} onClick={confirm} disabled={busy}>
            {busy ? 'Working…' : props.confirmLabel}
          </button>
        </div>
      </dialog>
    </>
  );
}
