import type { FunnelDependencies, FunnelEntry } from '@ferry/certificate-flow';
import { useFunnelMachine } from '@ferry/certificate-flow/react';
import { AlertDialog } from './components/AlertDialog.js';
import { BusyStatus } from './components/BusyStatus.js';
import { ChosenDocument } from './components/ChosenDocument.js';
import { ProgressSteps } from './components/ProgressSteps.js';
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

export function Funnel({ entry, deps }: { entry: FunnelEntry; deps: FunnelDependencies }) {
  const [state, dispatch] = useFunnelMachine(entry, deps);
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
