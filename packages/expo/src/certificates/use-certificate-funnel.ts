import {
  type CertificateLanguage,
  createCertificateI18n,
  DEFAULT_LANGUAGE,
  type FunnelAlert,
  type FunnelDependencies,
  type FunnelEntry,
  type FunnelEvent,
  type FunnelState,
  type Translate,
  translatorOf,
} from '@ferry/certificate-flow';
import { useFunnelMachine } from '@ferry/certificate-flow/react';
import type { Provider } from '@ferry/contracts';
import { useEffect, useRef } from 'react';
import { Alert } from 'react-native';
import { CERTIFICATE_PROVIDERS } from './certificate-providers.js';

/** Shows one funnel alert; `onDismiss` must be called once the person has closed it. */
export type ShowFunnelAlert = (alert: FunnelAlert, onDismiss: () => void) => void;

export interface UseCertificateFunnelOptions {
  /** Replaces the default presenter (React Native's Alert.alert with one button). */
  showAlert?: ShowFunnelAlert;
  /** The language of the default presenter's words: Korean unless given. */
  language?: CertificateLanguage;
}

export interface CertificateFunnelController {
  state: FunnelState;
  dispatch(event: FunnelEvent): void;
  /** The providers to offer on the simpleVerification step, in order. */
  providers: readonly Provider[];
  /** True while encryption or a call is in flight; the reducer ignores presses meanwhile. */
  isBusy: boolean;
}

/** React Native's Alert.alert with one button, its words rendered from the shared catalogue by `t`. */
export const nativeAlert =
  (t: Translate): ShowFunnelAlert =>
  (alert, onDismiss) =>
    Alert.alert(
      t(alert.title, alert.values),
      t(alert.message, alert.values),
      [{ text: t('dialog.ok'), onPress: onDismiss }],
      {
        cancelable: true,
        onDismiss,
      },
    );

const translators = new Map<CertificateLanguage, Translate>();
const translatorFor = (language: CertificateLanguage): Translate => {
  let t = translators.get(language);
  if (!t) {
    t = translatorOf(createCertificateI18n(language));
    translators.set(language, t);
  }
  return t;
};

/**
 * The certificate funnel for React Native: the web funnel's reducer, work runner and provider list,
 * so native and web behave identically (intro → simpleVerification → confirm → done, no error step).
 * Failures arrive as state.alert and are shown with Alert.alert; closing it dispatches alertDismissed.
 */
export function useCertificateFunnel(
  entry: FunnelEntry,
  deps: FunnelDependencies,
  options: UseCertificateFunnelOptions = {},
): CertificateFunnelController {
  const [state, dispatch] = useFunnelMachine(entry, deps);
  const shownAlert = useRef<FunnelAlert | null>(null);
  const showAlert = options.showAlert ?? nativeAlert(translatorFor(options.language ?? DEFAULT_LANGUAGE));
  const showAlertRef = useRef(showAlert);
  showAlertRef.current = showAlert;

  useEffect(() => {
    const alert = state.alert;
    if (alert === null) {
      shownAlert.current = null;
      return;
    }
    if (shownAlert.current === alert) return;
    shownAlert.current = alert;
    let dismissed = false;
    // Android calls both onPress and onDismiss in some versions; dismiss once.
    showAlertRef.current(alert, () => {
      if (dismissed) return;
      dismissed = true;
      dispatch({ type: 'alertDismissed' });
    });
  }, [state.alert, dispatch]);

  return { state, dispatch, providers: CERTIFICATE_PROVIDERS, isBusy: state.pending !== null };
}
