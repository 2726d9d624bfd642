import type { FunnelEvent, FunnelState } from '@ferry/certificate-flow';
import { PROVIDERS } from '@ferry/contracts';
import { StepHeading } from '../components/StepHeading.js';

interface StepProps {
  state: FunnelState;
  dispatch: (event: FunnelEvent) => void;
}

/** The five providers, in the contracts' order, labels and colours. Choosing one sends the first call. */
export function SimpleVerificationStep({ state, dispatch }: StepProps) {
  const busy = state.pending !== null;
  return (
    <section aria-labelledby="verification-heading">
      <StepHeading id="verification-heading">Choose how to verify your identity</StepHeading>
      <p id="provider-help">We will send an authentication request to the app you choose.</p>
      <ul className="providers" aria-describedby="provider-help" aria-busy={busy}>
        {[...PROVIDERS]
          .sort((a, b) => a.order - b.order)
          .map((provider) => (
            <li key={provider.code}>
              <button
                type="button"
                className="provider"
                data-provider={provider.code}
                style={{ backgroundColor: provider.color, color: provider.textColor }}
                aria-disabled={busy}
                aria-pressed={state.loginOrgCd === provider.code}
                onClick={() => dispatch({ type: 'providerChosen', provider: provider.code })}
              >
                {provider.label}
              </button>
            </li>
          ))}
      </ul>
      <div className="actions">
        <button type="button" aria-disabled={busy} onClick={() => dispatch({ type: 'backPressed' })}>
          Back to your details
        </button>
      </div>
    </section>
  );
}
