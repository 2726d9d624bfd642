import type { FunnelEvent, FunnelState } from '@ferry/certificate-flow';
import { useCertificateTranslation } from '@ferry/certificate-flow/react-i18next';
import { type ReactNode, useEffect, useState } from 'react';
import { StepHeading } from '../components/StepHeading.js';

interface StepProps {
  state: FunnelState;
  dispatch: (event: FunnelEvent) => void;
}

/** Re-renders when `at` (epoch ms) comes, so a link stops being offered the moment it stops working. */
function useNowPassing(at: number | undefined): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (at === undefined || at <= now) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.min(at - now + 50, 2 ** 31 - 1));
    return () => clearTimeout(timer);
  }, [at, now]);
  return now;
}

/**
 * The certificate is issued: open it in a new tab or download it while its link works, which the
 * page says in minutes and as a time of day. After a reload the link is read again from the server,
 * for what is left of it; once its time has passed the page says so, and offers a new request.
 */
export function DoneStep({ state, dispatch }: StepProps) {
  const { t, language } = useCertificateTranslation();
  const link = state.certificateLink;
  const now = useNowPassing(link?.expiresAt);
  const restart = (
    <button type="button" onClick={() => dispatch({ type: 'restarted' })}>
      {t('done.restart')}
    </button>
  );
  let body: ReactNode;
  if (state.pending) {
    body = null;
  } else if (state.preSignedUrl && (!link || now < link.expiresAt)) {
    const url = state.preSignedUrl;
    const until = link
      ? new Intl.DateTimeFormat(language, { hour: 'numeric', minute: '2-digit' }).format(link.expiresAt)
      : null;
    body = (
      <>
        {/* The chosen document is named just above (ChosenDocument), so the sentence does not repeat it. */}
        <p>{link ? t('done.issued', { minutes: link.minutes }) : t('done.issuedWithoutLimit')}</p>
        {until ? <p className="notice">{t('done.expiresAt', { time: until })}</p> : null}
        <div className="actions">
          <a className="button primary" href={url} target="_blank" rel="noopener noreferrer">
            {t('done.open')}
            <span className="visually-hidden">{t('done.opensInNewTab')}</span>
          </a>
          <a className="button" href={url} download="certificate.pdf">
            {t('done.download')}
          </a>
          {restart}
        </div>
      </>
    );
  } else if (link) {
    body = (
      <>
        <p className="notice">{t('done.linkExpired')}</p>
        <div className="actions">{restart}</div>
      </>
    );
  } else {
    body = (
      <>
        <p>{t('done.notLoaded')}</p>
        <div className="actions">
          <button type="button" className="primary" onClick={() => dispatch({ type: 'resumeRetried' })}>
            {t('entry.retry')}
          </button>
          {restart}
        </div>
      </>
    );
  }
  return (
    <section aria-labelledby="done-heading">
      <StepHeading id="done-heading">{t('done.heading')}</StepHeading>
      {body}
    </section>
  );
}
