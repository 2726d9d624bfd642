import type { FunnelEvent, FunnelState } from '@ferry/certificate-flow';
import { providerByCode } from '@ferry/contracts';
import { StepHeading } from '../components/StepHeading.js';

interface StepProps {
  state: FunnelState;
  dispatch: (event: FunnelEvent) => void;
}

/** The person approves in the provider app, then presses Complete, which sends the second call. */
export function ConfirmStep({ state, dispatch }: StepProps) {
  const busy = state.pending !== null;
  const provider = state.loginOrgCd ? providerByCode(state.loginOrgCd).label : 'your provider';
  return (
    <section aria-labelledby="confirm-heading">
      <StepHeading id="confirm-heading">Approve the request in {provider}</StepHeading>
      <ol className="instructions">
        <li>Open {provider} on your phone.</li>
        <li>Approve the authentication request.</li>
        <li>Come back here and press Complete.</li>
      </ol>
      <div className="actions">
        <button
          type="button"
          className="primary"
          aria-disabled={busy}
          onClick={() => dispatch({ type: 'completePressed' })}
        >
          Complete
        </button>
        <button type="button" aria-disabled={busy} onClick={() => dispatch({ type: 'backPressed' })}>
          Choose another provider
        </button>
      </div>
    </section>
  );
}
