import {
  type AlertKind,
  alertOf,
  type CertificateLanguage,
  entryFailureAlert,
  type FunnelDependencies,
  type FunnelEntry,
  type FunnelEntryPoint,
  resolveFunnelEntry,
} from '@ferry/certificate-flow';
import { useEffect, useRef, useState } from 'react';
import { ActivityIndicator, ScrollView, View } from 'react-native';
import { KeepAllText } from '../../text/keep-all-text.js';
import { nativeAlert, type ShowFunnelAlert, useCertificateFunnel } from '../use-certificate-funnel.js';
import { ActionButton } from './action-button.js';
import { BusyStatus } from './busy-status.js';
import { CertificateFunnelI18n } from './certificate-funnel-i18n.js';
import { type CertificateServer, useCertificateDependencies } from './certificate-server.js';
import { ConfirmScreen } from './confirm-screen.js';
import { DoneScreen } from './done-screen.js';
import { useFunnelText } from './funnel-copy.js';
import { COLORS, funnelStyles } from './funnel-styles.js';
import { IntroScreen } from './intro-screen.js';
import { LanguageSwitch } from './language-switch.js';
import { ProgressSteps } from './progress-steps.js';
import { SimpleVerificationScreen } from './simple-verification-screen.js';
import { StepHeading } from './step-heading.js';

export interface CertificateFunnelProps {
  /** The Ferry server: `{ url, getToken, aesKey, randomBytes? }`, or `{ api, cipher }` already made. */
  server: CertificateServer;
  /** `{ kind: 'menu' }` (VENDOR_A) or `{ kind: 'assignment', assignmentId }` (its certificateVendor). */
  entry: FunnelEntryPoint;
  /** Korean by default; the person can switch to English on the screen. */
  language?: CertificateLanguage;
  /** Replaces Alert.alert, e.g. with the app's own dialog. */
  showAlert?: ShowFunnelAlert;
  /**
   * The app's own menu where a member confirms their identity, named in the "identity confirmation
   * needed" alert (e.g. "내 정보 > 본인인증"); without it the alert asks them to confirm it, naming no menu.
   */
  certificationMenu?: string;
  /** Leaves the funnel (e.g. navigation.goBack): offered when it cannot start, such as for an unknown assignment. */
  onExit?: () => void;
}

export const CERTIFICATE_STEP_SCREENS = {
  intro: IntroScreen,
  simpleVerification: SimpleVerificationScreen,
  confirm: ConfirmScreen,
  done: DoneScreen,
} as const;

/**
 * The whole certificate funnel in one component: intro → simpleVerification → confirm → done, on the
 * web funnel's state machine, encryption and provider list, with the shared catalogue's words.
 */
export function CertificateFunnel({ language, ...props }: CertificateFunnelProps) {
  return (
    <CertificateFunnelI18n language={language}>
      <FunnelRoot {...props} />
    </CertificateFunnelI18n>
  );
}

type Resolved =
  | { status: 'loading' }
  | { status: 'ready'; entry: FunnelEntry }
  | { status: 'failed'; alert: AlertKind };

function FunnelRoot({ server, entry, showAlert, certificationMenu, onExit }: Omit<CertificateFunnelProps, 'language'>) {
  const text = useFunnelText();
  const deps = useCertificateDependencies(server);
  const presenter = showAlert ?? nativeAlert(text.t);
  const [resolved, setResolved] = useState<Resolved>({ status: 'loading' });
  const scroll = useRef<ScrollView>(null);
  // Keyed on the assignment id, not the object, so an inline `entry` prop does not resolve again.
  const assignmentId = entry.kind === 'assignment' ? entry.assignmentId : null;

  useEffect(() => {
    let current = true;
    setResolved({ status: 'loading' });
    const point: FunnelEntryPoint = assignmentId === null ? { kind: 'menu' } : { kind: 'assignment', assignmentId };
    resolveFunnelEntry(point, deps.api).then(
      (resolvedEntry) => current && setResolved({ status: 'ready', entry: { ...resolvedEntry, certificationMenu } }),
      (error: unknown) => current && setResolved({ status: 'failed', alert: entryFailureAlert(error) }),
    );
    return () => {
      current = false;
    };
  }, [assignmentId, deps.api, certificationMenu]);

  return (
    <ScrollView
      ref={scroll}
      keyboardShouldPersistTaps="handled"
      // iOS: the keyboard must not cover the field being typed in (Android resizes the window itself).
      automaticallyAdjustKeyboardInsets
      contentContainerStyle={{ paddingBottom: 32 }}
      style={{ flex: 1, backgroundColor: COLORS.surface }}
      testID="certificate-funnel"
    >
      <View style={[funnelStyles.screen, { paddingBottom: 0, flexDirection: 'row', alignItems: 'center' }]}>
        <KeepAllText accessibilityRole="header" style={[funnelStyles.subheading, { flex: 1 }]}>
          {text.t('service.heading')}
        </KeepAllText>
        <LanguageSwitch />
      </View>
      {resolved.status === 'ready' ? (
        <FunnelSteps
          entry={resolved.entry}
          deps={deps}
          showAlert={presenter}
          onStepChange={() => scroll.current?.scrollTo({ y: 0, animated: false })}
        />
      ) : resolved.status === 'loading' ? (
        <View style={funnelStyles.screen} aria-live="polite">
          <ActivityIndicator color={COLORS.primary} aria-hidden />
          <KeepAllText style={funnelStyles.muted}>{text.t('loading')}</KeepAllText>
        </View>
      ) : (
        <EntryFailure
          kind={resolved.alert}
          showAlert={presenter}
          certificationMenu={certificationMenu}
          onExit={onExit}
          fromAssignment={assignmentId !== null}
        />
      )}
    </ScrollView>
  );
}

function FunnelSteps({
  entry,
  deps,
  showAlert,
  onStepChange,
}: {
  entry: FunnelEntry;
  deps: FunnelDependencies;
  showAlert: ShowFunnelAlert;
  onStepChange(): void;
}) {
  const { state, dispatch } = useCertificateFunnel(entry, deps, { showAlert });
  const Step = CERTIFICATE_STEP_SCREENS[state.step];
  // A new step starts at its top, where its heading is (the screen reader's focus goes there too).
  const onStepChangeRef = useRef(onStepChange);
  onStepChangeRef.current = onStepChange;
  useEffect(() => {
    if (state.step) onStepChangeRef.current();
  }, [state.step]);
  return (
    <View testID={`certificate-step-${state.step}`}>
      <View style={[funnelStyles.screen, { paddingVertical: 0 }]}>
        <ProgressSteps step={state.step} />
      </View>
      <Step key={state.step} state={state} dispatch={dispatch} />
      <View style={[funnelStyles.screen, { paddingVertical: 0 }]}>
        <BusyStatus pending={state.pending} />
      </View>
    </View>
  );
}

/**
 * The funnel could not start (an unknown assignment, a signed-out user): the alert, its words on
 * screen, and the way back when the app gave one.
 */
function EntryFailure({
  kind,
  showAlert,
  certificationMenu,
  onExit,
  fromAssignment,
}: {
  kind: AlertKind;
  showAlert: ShowFunnelAlert;
  certificationMenu?: string;
  onExit?: () => void;
  fromAssignment: boolean;
}) {
  const text = useFunnelText();
  const alert = alertOf(kind, { certificationMenu });
  const shown = useRef(false);
  useEffect(() => {
    if (shown.current) return;
    shown.current = true;
    showAlert(alert, () => undefined);
  }, [alert, showAlert]);
  return (
    <View style={funnelStyles.screen} testID="certificate-entry-failure">
      <StepHeading>{text.t(alert.title, alert.values)}</StepHeading>
      <KeepAllText style={funnelStyles.body}>{text.t(alert.message, alert.values)}</KeepAllText>
      {onExit ? (
        <ActionButton
          label={text.t(fromAssignment ? 'entry.backToList' : 'entry.back')}
          onPress={onExit}
          testID="certificate-exit"
        />
      ) : null}
    </View>
  );
}
