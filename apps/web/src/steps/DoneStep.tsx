import { DOCUMENT_LABELS, type FunnelEvent, type FunnelState } from '@ferry/certificate-flow';
import { StepHeading } from '../components/StepHeading.js';

interface StepProps {
  state: FunnelState;
  dispatch: (event: FunnelEvent) => void;
}

/** The certificate is issued: open it in a new tab or download it (the link expires after a while). */
export function DoneStep({ state, dispatch }: StepProps) {
  const url = state.preSignedUrl ?? '';
  return (
    <section aria-labelledby="done-heading">
      <StepHeading id="done-heading">Your certificate is ready</StepHeading>
      <p>
        Your {DOCUMENT_LABELS[state.document].toLowerCase()} has been issued. The link works for a limited time, so save
        the file now.
      </p>
      <div className="actions">
        <a className="button primary" href={url} target="_blank" rel="noopener noreferrer">
          Open the PDF<span className="visually-hidden"> (opens in a new tab)</span>
        </a>
        <a className="button" href={url} download="certificate.pdf">
          Download the PDF
        </a>
        <button type="button" onClick={() => dispatch({ type: 'restarted' })}>
          Request another certificate
        </button>
      </div>
    </section>
  );
}
