import type { FunnelEvent, FunnelState } from '@ferry/certificate-flow';

/**
 * What every step screen takes: the funnel's state and its dispatch, as `useCertificateFunnel`
 * returns them. Apps that compose their own navigation render one screen per route with these.
 */
export interface CertificateStepProps {
  state: FunnelState;
  dispatch(event: FunnelEvent): void;
}
