import { type FunnelDependencies, type FunnelEntry, type FunnelState, snapshotOf } from '@ferry/certificate-flow';
import { useFunnelMachine } from '@ferry/certificate-flow/react';
import { useEffect } from 'react';
import { AlertDialog } from './components/AlertDialog.js';
import { BusyStatus } from './components/BusyStatus.js';
import { ChosenDocument } from './components/ChosenDocument.js';
import { ProgressSteps } from './components/ProgressSteps.js';
import { writeFunnelSession } from './runtime/funnel-session.js';
import { useStepHistory } from './runtime/step-history.js';
import { ConfirmStep } from './steps/ConfirmStep.js';
import { DoneStep } from './steps/DoneStep.js';
import { IntroStep } from './steps/IntroStep.js';
import { SimpleVerificationStep } from './steps/SimpleVerificationStep.js';

const STEP_VIEWS = {
  intro: IntroStep,
  simpleVerification: SimpleVerificationStep,
  confirm: ConfirmStep,
  done: DoneStep,
} as const;

interface FunnelProps {
  entry: FunnelEntry;
  deps: FunnelDependencies;
  /** Where a reload resumes (resumedState), instead of the entry's first step. */
  resumed?: FunnelState | null;
}

export function Funnel({ entry, deps, resumed }: FunnelProps) {
  const [state, dispatch] = useFunnelMachine(entry, deps, resumed);
  // What a reload needs to resume, kept for this tab (never the back part, never the link).
  useEffect(() => writeFunnelSession(snapshotOf(state)), [state]);
  useStepHistory(state.step, () => dispatch({ type: 'backPressed' }));
  const Step = STEP_VIEWS[state.step];
  return (
    <>
      <ProgressSteps step={state.step} />
      <main data-step={state.step}>
        {state.step === 'intro' ? null : <ChosenDocument document={state.document} />}
        <Step key={state.step} state={state} dispatch={dispatch} />
        <BusyStatus pending={state.pending} />
      </main>
      <AlertDialog alert={state.alert} onDismiss={() => dispatch({ type: 'alertDismissed' })} />
    </>
  );
}
